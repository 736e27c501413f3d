'use strict';
// The report's one model of a run (or of several runs side by side): findings × servers, each
// cell with its verdict, the measured ratio beside the article's, the rule's bands on the same
// scale, a one-line reason in words, where its evidence is, and how the server got there where
// that differs from the article's server (a table scan where the article had an index).
// report.html, summary.md and verdicts.png are views of this model; each run folder is read once.
const path = require('node:path');
const { readRun, sizesOf } = require('../results/reader');
const { aggregateRepeats } = require('../results/repeats');
const { matches } = require('../results/records');
const { fractionOf } = require('../sizing/planner');
const { verdictsForScenario, judge, HOLDS, FAILS, INCONCLUSIVE, UNTESTABLE, PUBLISHED_ONLY } = require('./verdicts');
const { serverDisplayName } = require('./server-names');
const { formatBytes } = require('./format');
const { markdownText } = require('./escape');

/** The verdict words in the order a tally and a legend list them. */
const STATUSES = [HOLDS, FAILS, INCONCLUSIVE, UNTESTABLE, PUBLISHED_ONLY];
/** A column where the run did not run the finding's scenario. */
const NOT_RUN = 'not run';

const anchorOf = (...parts) => parts.join('-').toLowerCase().replace(/[^a-z0-9-]+/g, '-');

/** The selections of records a check decides on (num, den, grows, flat, where), without fromServer. */
function selectionsOf(check) {
  const sels = [check.num, check.den, check.grows, check.flat?.where, check.where].filter(Boolean);
  return sels.map(({ fromServer, ...where }) => ({ ...check.where, ...where }));
}

/**
 * The figures a verdict's text states, as numbers: every "N×" outside parentheses and the
 * context in brackets, after "measured instead:" where the finding could not be tested.
 */
function ratiosInText(text) {
  let t = String(text || '');
  const instead = t.lastIndexOf('measured instead: ');
  if (instead >= 0) t = t.slice(instead + 'measured instead: '.length);
  t = t.replace(/\s*\[[^\]]*\]\s*$/, '');
  let prev;
  do { prev = t; t = t.replace(/\([^()]*\)/g, ''); } while (t !== prev);
  return [...t.matchAll(/(\d[\d,]*(?:\.\d+)?)×/g)].map((m) => Number(m[1].replace(/,/g, '')));
}

/**
 * The one ratio a cell draws: the verdict's own where it carries one as a number, else the
 * figure its text states (for a "near" check comparing several points, the farthest from 1,
 * which decides it). A crossing states percentages and has none.
 */
function ratioOfVerdict(verdict, check) {
  if (Number.isFinite(verdict.ratio)) return verdict.ratio;
  if (check.kind === 'crossing') return null;
  const xs = ratiosInText(verdict.measured).filter((x) => x > 0);
  if (!xs.length) return null;
  if (check.kind === 'near') return xs.reduce((a, b) => (Math.abs(Math.log(b)) > Math.abs(Math.log(a)) ? b : a));
  return xs[0];
}

/** A crossing's two ends as "+29.9% → −8.3%" (a larger, then smaller, than b). */
function crossingText(measured) {
  const ends = [...String(measured || '').matchAll(/(larger|smaller) by ([\d.]+)%/g)].map((m) => `${m[1] === 'larger' ? '+' : '−'}${m[2]}%`);
  const at = /crosses at \w+ (\d+)/.exec(String(measured || ''));
  return ends.length === 2 ? `${ends[0]} → ${ends[1]}${at ? `, cross at ${at[1]}` : ''}` : null;
}

/**
 * The rule's bands on the ratio's scale, as segments { from, to, status } (0 and Infinity at the
 * ends); null where the rule is not a ratio (a crossing, a finding only published).
 */
function bandsOf(check) {
  if (check.kind === 'ratio' && check.atMost !== undefined) {
    const fail = check.failAtLeast ?? 1 - check.margin;
    return [{ from: 0, to: check.atMost, status: HOLDS }, { from: check.atMost, to: fail, status: INCONCLUSIVE }, { from: fail, to: Infinity, status: FAILS }];
  }
  if (check.kind === 'ratio' || check.kind === 'growth') {
    const fail = check.failAtMost ?? 1 + check.margin;
    return [{ from: 0, to: fail, status: FAILS }, { from: fail, to: check.atLeast, status: INCONCLUSIVE }, { from: check.atLeast, to: Infinity, status: HOLDS }];
  }
  if (check.kind === 'near') {
    const t = check.tolerance;
    return [
      { from: 0, to: 1 - 2 * t, status: FAILS }, { from: 1 - 2 * t, to: 1 - t, status: INCONCLUSIVE }, { from: 1 - t, to: 1 + t, status: HOLDS },
      { from: 1 + t, to: 1 + 2 * t, status: INCONCLUSIVE }, { from: 1 + 2 * t, to: Infinity, status: FAILS },
    ];
  }
  return null;
}

/** A ratio in a cell: 2 significant digits under 10, else whole. */
function ratioText(r) {
  if (!Number.isFinite(r)) return '–';
  if (r >= 100) return `${Math.round(r)}×`;
  if (r >= 10) return `${r.toFixed(1)}×`;
  return `${r.toFixed(2)}×`;
}

/** The bands in words: "holds at 2.5× or more; 1.2× or less does not hold". */
function bandsText(bands) {
  if (!bands) return '';
  const holds = bands.filter((b) => b.status === HOLDS);
  const phrase = (b) => (b.from === 0 ? `${ratioText(b.to)} or less` : b.to === Infinity ? `${ratioText(b.from)} or more` : `${ratioText(b.from)} to ${ratioText(b.to)}`);
  const fails = bands.filter((b) => b.status === FAILS);
  return `holds at ${holds.map(phrase).join(' or ')}; does not hold at ${fails.map(phrase).join(' or ')}`;
}

/** A measured value with its unit, from the field it was read from (appliedMs, meanUs, seconds, ...Bytes). */
function valueWithUnit(field, value) {
  const n = Number(String(value).replace(/,/g, ''));
  if (!Number.isFinite(n)) return String(value);
  const sig = (x) => (x >= 100 ? Math.round(x).toLocaleString('en-US') : x >= 10 ? x.toFixed(1) : x.toFixed(2));
  if (/Bytes$|^size$|Size$/.test(field)) return formatBytes(n);
  if (/Us$/.test(field)) return n >= 1000 ? valueWithUnit('ms', n / 1000) : `${sig(n)} µs`;
  if (/Ms$|^ms$/.test(field)) return n >= 1000 ? `${sig(n / 1000)} s` : `${sig(n)} ms`;
  if (/Seconds$|^seconds$/.test(field)) return `${sig(n)} s`;
  return sig(n);
}

/** camelCase and dotted field names as words: perBlog → "per blog", lowMemory.outcome → "low memory outcome". */
function fieldWords(name) {
  return name.replace(/\./g, ' ').replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
}

/**
 * A verdict's text with the records' field names said in words: "seconds 4.074 / 2.127" →
 * "4.07 s / 2.13 s", "at 1000 perBlog" → "at 1,000 per blog", "(unacknowledged.outcome:
 * refused)" dropped (the sentence before it says it). Names with digits (usePowerOf2Sizes, a
 * collection) are the article's own words and stay.
 */
function inWords(text) {
  // figures verdicts.js already gave in words with their unit: "applied time 50 / 10 s" → "applied time 50.0 s against 10.0 s"
  const UNIT_FIELD = { s: 'seconds', ms: 'ms', 'µs': 'meanUs', bytes: 'sizeBytes' };
  return String(text || '')
    .replace(/(\d[\d,]*(?:\.\d+)?) \/ (\d[\d,]*(?:\.\d+)?) (s|ms|µs|bytes)(?![\w])/g,
      (m, a, b, unit) => `${valueWithUnit(UNIT_FIELD[unit], a)} against ${valueWithUnit(UNIT_FIELD[unit], b)}`)
    .replace(/\b([a-z]+(?:[A-Z][a-z]*)*|ms|seconds)( summed)? (\d[\d,]*(?:\.\d+)?) \/ (\d[\d,]*(?:\.\d+)?)/g,
      (m, field, summed, a, b) => `${valueWithUnit(field, a)} against ${valueWithUnit(field, b)}${summed ? ' in all' : ''}`)
    .replace(/\s*\((?:[a-z]+[A-Z.][\w.]*)(?::| \d)(?:[^()]|\([^()]*\))*\)/g, '')
    .replace(/\b(\d+) ([a-z]+[A-Z]\w*)\b/g, (m, n, field) => (/\d/.test(field) ? m : `${Number(n).toLocaleString('en-US')} ${fieldWords(field)}`))
    .replace(/\b([a-z]+[A-Z][a-zA-Z]*)\b(?=:| \d| \()/g, (m) => fieldWords(m));
}

/** The first clause of a sentence: up to its first ": " or "; " outside parentheses, with long asides dropped. */
function firstClause(text) {
  const t = String(text || '').trim();
  let depth = 0;
  let cut = t.length;
  for (let i = 0; i < t.length; i += 1) {
    if (t[i] === '(') depth += 1;
    else if (t[i] === ')') depth -= 1;
    else if (depth === 0 && (t[i] === ':' || t[i] === ';') && t[i + 1] === ' ') { cut = i; break; }
  }
  let prev;
  let out = t.slice(0, cut);
  // an aside longer than a few words belongs to the evidence, not to a one-line reason
  do { prev = out; out = out.replace(/\s*\([^()]{16,}\)/g, ''); } while (out !== prev);
  return out;
}

/**
 * One line saying why a cell reads as it does, in words: what made it untestable, what it
 * compared, or how close to the margin it fell.
 */
function reasonOf(verdict, check, bands) {
  const text = String(verdict.measured || '');
  if (verdict.status === PUBLISHED_ONLY) return firstClause(check.reason);
  if (verdict.status === UNTESTABLE) return firstClause(inWords(text.split('; measured instead:')[0]));
  if (/too short to decide/.test(text)) return 'the timed span was too short to decide';
  if (/repeats overlap the margin/.test(text)) return 'the repeated runs overlap the margin';
  if (check.kind === 'crossing') return crossingText(text) || firstClause(inWords(text));
  if (check.kind === 'growth') {
    const m = /at (\d+) (\w+) against the fastest \((\d+)/.exec(text);
    if (m) return `at ${Number(m[1]).toLocaleString("en-US")} ${fieldWords(m[2])} against ${Number(m[3]).toLocaleString("en-US")}`;
  }
  if (verdict.status === INCONCLUSIVE && bands) {
    const between = bands.filter((b) => b.status === INCONCLUSIVE).map((b) => `${ratioText(b.from)}–${ratioText(b.to)}`);
    return `inside the margin, ${between.join(' or ')}`;
  }
  const compared = /\(([^()]*? against [^()]*?)\)/.exec(inWords(text));
  return compared ? compared[1] : firstClause(inWords(text));
}

const SCAN = /\b(COLLSCAN|Seq Scan|table scan|reads every document)\b/i;

/**
 * How the server found its documents where a recorded plan says it read them all (a table or
 * collection scan) rather than through an index, as the articles' servers did: from the plan
 * fields, scan flags and plan texts of the records the finding is decided on. null otherwise.
 */
function mechanismOf(finding, records) {
  const sels = [...selectionsOf(finding.check), ...(finding.context || []).map((c) => c.where || {})];
  const decidedOn = records.filter((r) => sels.some((where) => matches(r, { where })));
  // a plan's own flag, its counters (documents examined with no key examined: no index was used),
  // or its text or stage names (COLLSCAN, PostgreSQL's Seq Scan)
  const counted = (o) => Number.isFinite(o.docsExamined) && o.docsExamined > 1 && o.keysExamined === 0;
  const said = (k, v) => /plan|Text$/i.test(k) && [].concat(v).some((x) => typeof x === 'string' && SCAN.test(x));
  const scans = (r) => r.planScans === true || counted(r)
    || Object.values(r).some((v) => v && typeof v === 'object' && !Array.isArray(v) && (v.scan === true || counted(v)))
    || Object.entries(r).some(([k, v]) => said(k, v));
  return decidedOn.some(scans) ? 'by a table scan' : null;
}

/** The article's own figure for a finding: its check applied to the published table, else the first "N×" its text states. */
function articleRatio(finding, publishedRecords) {
  if (finding.check.kind !== 'publishedOnly' && !finding.across) {
    try {
      const v = judge(finding, publishedRecords);
      const r = ratioOfVerdict(v, finding.check);
      if (Number.isFinite(r)) return { ratio: finding.source === 'kit' ? null : r, text: ratioText(r) };
      if (finding.check.kind === 'crossing') {
        const text = crossingText(v.measured);
        if (text) return { ratio: null, text };
      }
    } catch { /* a check the published table cannot answer: its text says the figure */ }
  }
  const stated = /(\d[\d,]*(?:\.\d+)?)\s?×/.exec(String(finding.published || ''));
  const ratio = stated ? Number(stated[1].replace(/,/g, '')) : null;
  // the kit's own questions cite the article's figure of another comparison (TokuMX): said, not drawn
  return { ratio: finding.source === 'kit' ? null : ratio, text: Number.isFinite(ratio) ? ratioText(ratio) : '' };
}

/** An untested verdict's text as { why, instead }: the reason, and what was measured instead. */
function splitWhy(text) {
  const at = text.indexOf('; measured instead: ');
  return at < 0 ? { why: text, instead: '' } : { why: text.slice(0, at), instead: text.slice(at + '; measured instead: '.length) };
}

/**
 * A growth measured up to a smaller x than the article's (1,000 comments per blog where the article
 * went to 10,000) compares with the article's own growth up to that x: the check applied to the
 * published records up to it. null where the run reached the article's largest x, or for other checks.
 */
function articleAtSameSize(finding, verdict, published) {
  const { check } = finding;
  if (check.kind !== 'growth' || !published?.length || finding.source === 'kit') return null;
  const at = new RegExp(`at (\\d+) ${check.x} against the fastest`).exec(String(verdict.measured || ''));
  if (!at) return null;
  const maxX = Number(at[1]);
  const xs = published.map((r) => r[check.x]).filter(Number.isFinite);
  if (!xs.length || maxX >= Math.max(...xs)) return null;
  try {
    const r = ratioOfVerdict(judge(finding, published.filter((p) => !Number.isFinite(p[check.x]) || p[check.x] <= maxX)), check);
    return Number.isFinite(r) ? { ratio: r, text: ratioText(r) } : null;
  } catch {
    return null;
  }
}

/** One cell of the matrix from one verdict. */
function cellOf(verdict, finding, { anchor, records, published }) {
  const bands = bandsOf(finding.check);
  const ratio = ratioOfVerdict(verdict, finding.check);
  const tested = [HOLDS, FAILS, INCONCLUSIVE].includes(verdict.status);
  const article = articleAtSameSize(finding, verdict, published);
  let reason = reasonOf(verdict, finding.check, bands);
  if (article && tested) reason += `; the article ${article.text} there`;
  // a measurement taken while another run of the kit was timing on the same machine (recorded by the run)
  const shared = tested && records.some((r) => r.otherRuns?.length);
  if (shared) reason += '; another run of the kit shared the machine';
  return {
    shared,
    status: verdict.status,
    ratio,
    // where the run stopped short of the article's largest point, the article's figure at the run's
    ...(article ? { article } : {}),
    ratioText: finding.check.kind === 'crossing' ? crossingText(verdict.measured) || '–' : ratioText(ratio),
    bands,
    reason,
    // a verdict that names its own mechanism keeps it; else it is read from the recorded plans
    mechanism: tested ? (verdict.mechanism || mechanismOf(finding, records)) : null,
    measured: inWords(verdict.measured),
    // where the finding could not be tested or is only published: why, and what was measured instead
    ...(tested ? {} : splitWhy(inWords(verdict.measured))),
    evidence: `#${anchor}`,
  };
}

/**
 * What a reader must know of how a run went, said under its facts: that it was resumed, and from where; that another run
 * of the kit shared the machine during its timed steps (the verdicts decided on them say so too).
 */
function runNotes(data) {
  const { resumes, steps } = data;
  const where = (from) => (from.afterStep ? [from.afterStep.server, from.afterStep.scenario, from.afterStep.step, from.afterStep.pass ? `pass ${from.afterStep.pass}` : null].filter(Boolean).join(' · ') : 'its start');
  // markdown, the run's own words in it as text (markdownText)
  const resumed = resumes.filter((r) => r.from).map(({ from }) => `**Resumed** after ${markdownText(where(from))} (it had ended: ${markdownText(from.ended)}).`).join('\n\n');
  const sharedSteps = steps.filter((st) => st.otherRuns?.length);
  const shared = sharedSteps.length
    ? `**Another run of the kit shared this machine** during ${sharedSteps.length} timed step(s) (${markdownText([...new Set(sharedSteps.flatMap((st) => st.otherRuns.map((o) => o.runId)))].join(', '))}): their numbers may be disturbed, and the verdicts decided on them say so.`
    : '';
  return [resumed, shared].filter(Boolean);
}

/** The run's facts for the line above the matrix: date, machine, kit, size, shell. */
function runFacts(data) {
  const { run } = data;
  const m = run.machine || {};
  return {
    date: String(run.startedAt || '').replace('T', ' ').replace(/:\d\d(\.\d+)?Z$/, ' UTC'),
    machine: `${m.cores} × ${String(m.cpu || '').replace(/\(R\)|\(TM\)|Processor/g, '').replace(/\s+/g, ' ').trim()}, ${formatBytes(m.memoryBytes)}`,
    kit: `kit ${run.kit?.version ?? '?'}${run.kit?.commit ? ` (${run.kit.commit.slice(0, 7)})` : ''}`,
    size: run.params.size === 'auto' ? `size auto, ${Math.round((run.params.budgetSeconds || 0) / 60)} min per server` : `size ${run.params.size}`,
    shell: run.params.shell === 'mongosh' || run.shell === 'mongosh' ? 'timed in mongosh' : 'timed in the kit\'s shell',
  };
}

/**
 * The model of one or more runs. runs: [{ dir, data? }] (data: readRun's answer, read here where
 * absent). Returns { runs, columns, articles, kitRows, tally }; each run keeps its scenarios'
 * records (repeats aggregated) and verdicts for the views that need more than the matrix.
 */
function buildReportModel(runs, scenarios) {
  const many = runs.length > 1;
  const models = runs.map((r, index) => {
    const data = r.data || readRun(r.dir);
    const ran = data.run.params.scenarios.map((n) => scenarios.find((s) => s.name === n)).filter(Boolean);
    const recordsOf = new Map(ran.map((s) => [s.name, aggregateRepeats(data.measurements.filter((m) => m.scenario === s.name), s, s.loadPublished().findings || [])]));
    const verdicts = ran.flatMap((s) => verdictsForScenario(s, recordsOf.get(s.name), (server) => sizesOf(data, s.name, server)));
    // the servers judged: every server the run started but a baseline (the SQL store held against them)
    const judged = data.servers.filter((s) => !s.baselineFor);
    return { index, dir: r.dir, label: path.basename(r.dir), data, facts: runFacts(data), notes: runNotes(data), scenarios: ran, recordsOf, verdicts, judged };
  });

  const columns = models.flatMap((m) => m.judged.map((s) => ({
    key: `${m.index}|${s.server}`, run: m.index, runLabel: m.label, server: s.server, record: s, name: serverDisplayName(s),
    sub: many ? `${m.label} · ${m.facts.size}` : `${s.server} · ${m.facts.size}`,
  })));

  const articles = [];
  const kitRows = [];
  for (const scenario of scenarios.filter((s) => models.some((m) => m.scenarios.includes(s)))) {
    const published = scenario.loadPublished();
    const findings = published.findings || [];
    const article = {
      scenario: scenario.name, title: scenario.title, article: scenario.article, publishedServer: published.server, anchor: anchorOf('article', scenario.name), rows: [], foldedRow: null,
    };
    for (const finding of findings) {
      const anchor = anchorOf('finding', scenario.name, finding.id);
      const row = {
        id: finding.id, scenario: scenario.name, claim: finding.claim, published: finding.published, rule: finding.decidedBy,
        kit: finding.source === 'kit', article: articleRatio(finding, published.records || []), bands: bandsOf(finding.check), anchor, cells: {},
      };
      for (const col of columns) {
        const m = models[col.run];
        if (!m.scenarios.includes(scenario)) { row.cells[col.key] = { status: NOT_RUN, reason: '', bands: null, ratio: null, ratioText: '' }; continue; }
        // a finding across servers (zstd against none) or published only is one verdict for the whole run
        const v = m.verdicts.find((x) => x.scenario === scenario.name && x.finding.id === finding.id && (x.server === col.server || x.server === 'all servers' || x.server === 'the article\'s'));
        if (!v) { row.cells[col.key] = { status: NOT_RUN, reason: 'not measured on this server', bands: null, ratio: null, ratioText: '' }; continue; }
        const records = (m.recordsOf.get(scenario.name) || []).filter((r) => r.server === col.server);
        row.cells[col.key] = cellOf(v, finding, { anchor, records, published: published.records || [] });
      }
      if (finding.check.kind === 'publishedOnly') article.publishedOnly = [...(article.publishedOnly || []), row];
      else if (row.kit) kitRows.push(row);
      else article.rows.push(row);
    }
    // the findings no server today can run fold into one row: the article's claims, the reason once
    if (article.publishedOnly?.length) {
      const first = article.publishedOnly[0];
      article.foldedRow = {
        id: 'published-only', scenario: scenario.name, folded: article.publishedOnly,
        claim: `${article.publishedOnly.length} finding${article.publishedOnly.length === 1 ? '' : 's'} about what no server today runs: ${article.publishedOnly.map((r) => r.claim).join('; ')}`,
        published: article.publishedOnly.map((r) => r.published).join('; '), rule: firstClause(first.rule), kit: false,
        article: { ratio: null, text: article.publishedOnly.map((r) => r.article.text).filter(Boolean).join(', ') }, bands: null,
        anchor: anchorOf('finding', scenario.name, 'published-only'), cells: first.cells,
      };
    }
    articles.push(article);
  }

  const allRows = [...articles.flatMap((a) => [...a.rows, ...(a.foldedRow ? [a.foldedRow] : [])]), ...kitRows];
  const tally = Object.fromEntries(STATUSES.map((s) => [s, 0]));
  for (const row of allRows) for (const cell of Object.values(row.cells)) if (cell.status in tally) tally[cell.status] += 1;
  return { runs: models, columns, articles, kitRows, rows: allRows, tally };
}

/** The size a server ran a scenario at, as a share of the article's ("50% of the article's size"), or null. */
function sizeShare(runModel, scenario, server) {
  const sizes = sizesOf(runModel.data, scenario.name, server);
  if (!sizes) return null;
  try {
    const f = fractionOf(scenario, sizes);
    return Number.isFinite(f) ? f : null;
  } catch {
    return null;
  }
}

module.exports = {
  buildReportModel, bandsOf, ratioOfVerdict, ratioText, bandsText, reasonOf, mechanismOf, inWords, firstClause, sizeShare, anchorOf,
  STATUSES, NOT_RUN,
};
