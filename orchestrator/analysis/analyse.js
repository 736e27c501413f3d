'use strict';
// The one place a run's records become verdicts: every view (the report, summary.md,
// verdicts.png, verdicts.json, compare) and the tests call analyseRun or analyseScenario, and
// none repeats the aggregate-and-judge wiring.
const { aggregateRepeats } = require('../results/repeats');
const { sizesOf } = require('../results/reader');
const { judge, checkOf } = require('./judge');
const { ruleOf } = require('./rules');

/** The servers a finding is held against rather than judged: a scenario's baseline (the SQL store). */
function referenceServers(scenario, finding) {
  return [scenario.baseline?.server, finding.check?.num?.fromServer, finding.check?.den?.fromServer].filter(Boolean);
}

/**
 * Every finding of one scenario on every server that measured it. measurements and blocks are
 * the scenario's records as the run wrote them (warm-up runs are left out here); sizesOf(server)
 * the sizes that server ran at, where known; servers the run's server records (their round trip).
 * Returns { records (aggregated: one per cell, the
 * median of the repeats), verdicts }.
 */
function analyseScenario(scenario, { measurements = [], blocks = [], sizesOf: sizesFor = () => null, servers: serverRecords = [] }) {
  const findings = scenario.loadPublished().findings || [];
  const raw = measurements.filter((m) => !m.warmup);
  // the cells whose repeats printed different numbers of lines: their first run stands alone
  const misaligned = new Set();
  const records = aggregateRepeats(raw, scenario, findings, { onMisaligned: (r) => misaligned.add(r) });
  const counted = blocks.filter((b) => !b.warmup);
  const servers = [...new Set([...records, ...counted].map((r) => r.server))];
  const verdicts = [];
  for (const finding of findings) {
    const ctx = { scenario: scenario.name, records, blocks: counted, raw, descriptor: scenario, misaligned };
    if (finding.check.kind === 'publishedOnly' || finding.across) {
      verdicts.push({ ...judge(finding, { ...ctx, server: finding.across ? 'all servers' : 'the article\'s', sizes: null }), ...articleFigures(finding, scenario) });
      continue;
    }
    const refs = referenceServers(scenario, finding);
    for (const server of servers.filter((s) => !refs.includes(s))) {
      const serverRecord = serverRecords.find((r) => r.server === server) || null;
      verdicts.push({ ...judge(finding, { ...ctx, server, serverRecord, sizes: sizesFor(server) }), ...articleFigures(finding, scenario) });
    }
  }
  for (const v of verdicts) if (v.status !== 'published only') Object.assign(v, articleAtRunSize(findings.find((f) => f.id === v.finding), v, scenario));
  return { records, verdicts };
}

/**
 * Every scenario a run ran, analysed: { scenarios (the descriptors, in the run's order),
 * recordsOf: Map(name → aggregated records), verdicts }.
 */
function analyseRun(data, scenarios) {
  const ran = data.run.params.scenarios.map((n) => scenarios.find((s) => s.name === n)).filter(Boolean);
  const recordsOf = new Map();
  const verdicts = [];
  for (const scenario of ran) {
    const out = analyseScenario(scenario, {
      measurements: data.measurements.filter((m) => m.scenario === scenario.name),
      blocks: (data.blocks || []).filter((b) => b.scenario === scenario.name),
      sizesOf: (server) => sizesOf(data, scenario.name, server),
      servers: data.servers,
    });
    recordsOf.set(scenario.name, out.records);
    verdicts.push(...out.verdicts);
  }
  return { scenarios: ran, recordsOf, verdicts };
}

/**
 * The article's own figure for a finding: its check applied to the published table on the
 * article's clock, else the first "N×" its published text states (the article's own words).
 * The kit's own questions cite another comparison's figure (TokuMX): said, not drawn.
 */
function articleFigures(finding, scenario) {
  const published = scenario.loadPublished();
  let ratio = null;
  if (finding.check.kind !== 'publishedOnly' && !finding.across && finding.check.kind !== 'crossing') {
    const v = judgePublished(finding, published.records || []);
    if (Number.isFinite(v?.ratio)) ratio = v.ratio;
  }
  if (ratio === null) {
    const stated = /(\d[\d,]*(?:\.\d+)?)\s?×/.exec(String(finding.published || ''));
    ratio = stated ? Number(stated[1].replace(/,/g, '')) : null;
  }
  return { articleRatio: finding.source === 'kit' ? null : ratio };
}

/**
 * The finding judged on the article's published records, read as one run on the article's
 * clock: a side that names a server of its own (the SQL baseline) is the table's row of that
 * method.
 */
function judgePublished(finding, publishedRecords, upTo = null) {
  const check = checkOf(finding);
  const field = finding.clock?.article ?? check.field;
  const strip = (sel) => (sel ? (({ fromServer, ...where }) => where)(sel) : sel);
  const asRun = {
    ...finding, clock: undefined, requires: undefined,
    check: { ...finding.check, field, num: strip(finding.check.num), den: strip(finding.check.den), ...(finding.check.flat ? { flat: finding.check.flat } : {}) },
  };
  const records = publishedRecords.filter((r) => upTo === null || !Number.isFinite(r[check.x]) || r[check.x] <= upTo).map((r) => ({ ...r, server: 'published' }));
  try {
    return judge(asRun, { scenario: '', server: 'published', records, blocks: [], raw: [], descriptor: null, sizes: null });
  } catch {
    return null; // a check the published table cannot answer: its text says the figure
  }
}

/**
 * Where a growth was measured up to a smaller x than the article's (1,000 comments per blog where
 * the article went to 10,000), the article's own growth up to that x: { articleAtRunSize: {x,
 * ratio} }, else nothing.
 */
function articleAtRunSize(finding, verdict, scenario) {
  if (!finding || finding.check.kind !== 'growth' || finding.source === 'kit' || !Number.isFinite(verdict.at)) return {};
  const published = scenario.loadPublished().records || [];
  const xs = published.map((r) => r[finding.check.x]).filter(Number.isFinite);
  if (!xs.length || verdict.at >= Math.max(...xs)) return {};
  const v = judgePublished(finding, published, verdict.at);
  return Number.isFinite(v?.ratio) ? { articleAtRunSize: { x: verdict.at, ratio: v.ratio } } : {};
}

module.exports = { analyseRun, analyseScenario, judgePublished, referenceServers, ruleOf };
