'use strict';
// The report's one model of a run (or of several runs side by side): findings × servers, each
// cell with its verdict, the measured ratio beside the article's, the rule's bands on the same
// scale, a one-line reason in words, where its evidence is, and how the server got there where
// that differs from the article's server (a table scan where the article had an index).
// report.html, summary.md and verdicts.png are views of this model; each run folder is read once.
const path = require('node:path');
const { bandsOf: bandsOfRule, TESTED, NEEDS_SIZE, UNTESTABLE, STATUSES } = require('../analysis/rules');
const { ruleOfFinding } = require('../analysis/rule-words');
const { decidesByMeasurement } = require('../analysis/checks');
const { reasonWords } = require('../analysis/reasons');
const { estimateText, intervalText, detailText, crossingText, ratioText, contentionText } = require('../analysis/verdict-words');
const { formatBytes } = require('./format');
const { formatDuration } = require('../sizing/duration');

/** A column where the run did not run the finding's scenario. */
const NOT_RUN = 'not run';

const anchorOf = (...parts) => parts.join('-').toLowerCase().replace(/[^a-z0-9-]+/g, '-');

/** A finding's bands on the ratio scale, from its one threshold table (analysis/rules.js), held to the article's figure. */
const bandsOf = (finding) => bandsOfRule(ruleOfFinding(finding));

/**
 * One cell of the matrix from one verdict: its status, its ratio with the interval and n, the
 * rule's bands, a one-line reason and what was measured, all read from the verdict's fields.
 */
function cellOf(verdict, finding, anchor) {
  const tested = TESTED.includes(verdict.status);
  const bands = bandsOfRule(verdict.thresholds);
  const interval = intervalText(verdict);
  const why = reasonWords(verdict.reasons);
  let reason = why;
  // a decided cell says how sure it is where nothing else needs saying
  if (!reason && tested) reason = interval ? `95% interval ${interval}, n=${verdict.n}` : '';
  if (verdict.articleAtRunSize && tested) reason = [reason, `the article ${ratioText(verdict.articleAtRunSize.ratio)} at ${verdict.articleAtRunSize.x.toLocaleString('en-US')}`].filter(Boolean).join('; ');
  const detail = detailText(verdict, finding);
  return {
    verdict,
    status: verdict.status,
    // the Verdict's own figures (analysis/verdict.js made each finite or null), not made again here
    ratio: verdict.estimate.ratio,
    lo: verdict.estimate.lo,
    hi: verdict.estimate.hi,
    n: verdict.estimate.n,
    shared: verdict.evidence.shared,
    // where the run stopped short of the article's largest point, the article's figure at the run's
    ...(verdict.articleAtRunSize ? { article: { ratio: verdict.articleAtRunSize.ratio, text: ratioText(verdict.articleAtRunSize.ratio) } } : {}),
    ratioText: verdict.crossing ? crossingText(verdict.crossing) || '–' : ratioText(verdict.ratio),
    estimateText: verdict.crossing ? crossingText(verdict.crossing) || '–' : estimateText(verdict),
    bands,
    reason,
    mechanism: tested ? verdict.mechanism : null,
    measured: detail,
    // whether the two sides did the same work, in the analysis's words (analysis/conditions.js); null where the run recorded none
    conditions: verdict.conditions?.text ?? null,
    // where the finding could not be tested or is only published: why, and what was measured instead
    ...(tested ? {} : { why, instead: [UNTESTABLE, NEEDS_SIZE].includes(verdict.status) ? detail : '' }),
    evidence: `#${anchor}`,
  };
}

/**
 * What a reader must know of how a run went, said under its facts (each note inline parts, blocks.js): that it was resumed, and from where; that another run
 * of the kit shared the machine during its timed steps (the verdicts decided on them say so too).
 */
function runNotes(data) {
  const { resumes, steps } = data;
  const where = (from) => (from.afterStep ? [from.afterStep.server, from.afterStep.scenario, from.afterStep.step, from.afterStep.pass ? `pass ${from.afterStep.pass}` : null].filter(Boolean).join(' · ') : 'its start');
  // inline parts (blocks.js): the run's own words in them as text
  const resumed = resumes.filter((r) => r.from).map(({ from }) => [{ strong: { say: 'Resumed' } }, { say: ' after ' }, where(from), { say: ' (it had ended: ' }, from.ended, { say: ').' }]);
  const sharedSteps = steps.filter((st) => st.otherRuns?.length);
  const shared = sharedSteps.length
    ? [[{ strong: { say: 'Another run of the kit shared this machine' } }, { say: ` during ${sharedSteps.length} timed step(s) (` }, [...new Set(sharedSteps.flatMap((st) => st.otherRuns.map((o) => o.runId)))].join(', '), { say: '): their numbers may be disturbed, and the verdicts decided on them say so.' }]]
    : [];
  return [...resumed, ...shared];
}

/** The run's facts for the line above the matrix: date, machine, kit, size, shell, and how busy the machine was. */
function runFacts(data, contention = null, machine = null) {
  const { run } = data;
  const m = run.machine || {};
  return {
    date: String(run.startedAt || '').replace('T', ' ').replace(/:\d\d(\.\d+)?Z$/, ' UTC'),
    // the fingerprint's id names the machine, so a user comparing with a kept run sees whether theirs is the same one
    machine: `${m.cores} × ${String(m.cpu || '').replace(/\(R\)|\(TM\)|Processor/g, '').replace(/\s+/g, ' ').trim()}, ${formatBytes(m.memoryBytes)}${machine?.id ? `, ${machine.kernel ?? ''} (machine ${machine.id})`.replace(', (', ' (') : ''}`,
    kit: `kit ${run.kit?.version ?? '?'}${run.kit?.commit ? ` (${run.kit.commit.slice(0, 7)})` : ''}`,
    size: run.params.size === 'auto' ? `size auto, ${formatDuration(run.params.budgetSeconds || 0)} per server` : `size ${run.params.size}`,
    shell: run.params.shell === 'mongosh' || run.shell === 'mongosh' ? 'timed in mongosh' : 'timed in the kit\'s shell',
    busy: contentionText(contention),
  };
}

/**
 * The page's model of one or more runs, from their run models (analysis/run-model.js: each read
 * and analysed once). Returns { runs, columns, articles, kitRows, rows, tally }; each run keeps its
 * run model's parts (scenarios' records and drawn records, verdicts) for the views that need more
 * than the matrix.
 */
function buildReportModel(runModels, scenarios) {
  const many = runModels.length > 1;
  const models = runModels.map((run, index) => {
    const { data, contention } = run;
    // the servers judged: every server the run started but a baseline (the SQL store held against them)
    const judged = data.servers.filter((s) => !s.baselineFor);
    return { ...run, index, label: path.basename(run.dir), facts: runFacts(data, contention, run.machine), notes: runNotes(data), judged };
  });

  const columns = models.flatMap((m) => m.judged.map((s) => ({
    key: `${m.index}|${s.server}`, run: m.index, runLabel: m.label, server: s.server, record: s, name: s.name,
    sub: many ? `${m.label} · ${m.facts.size}` : `${s.server} · ${m.facts.size}`,
  })));

  const articles = [];
  const kitRows = [];
  // a run ran a scenario by its name (its run model may hold descriptors discovered apart)
  const ran = (m, scenario) => m.scenarioModels.has(scenario.name);
  for (const scenario of scenarios.filter((s) => models.some((m) => ran(m, s)))) {
    const published = scenario.loadPublished();
    const findings = published.findings || [];
    const article = {
      scenario: scenario.name, title: scenario.title, article: scenario.article, publishedServer: published.serverInBrief ?? published.server, anchor: anchorOf('article', scenario.name), rows: [], foldedRow: null,
    };
    for (const finding of findings) {
      const anchor = anchorOf('finding', scenario.name, finding.id);
      const ofFinding = models.flatMap((m) => m.verdicts).find((v) => v.scenario === scenario.name && v.finding === finding.id);
      const articleRatio = ofFinding?.articleRatio ?? null;
      const row = {
        id: finding.id, scenario: scenario.name, claim: finding.claim, published: finding.published, rule: finding.decidedBy, reasoning: finding.reasoning ?? null, finding,
        kit: finding.source === 'kit',
        article: { ratio: Number.isFinite(articleRatio) ? articleRatio : null, text: Number.isFinite(articleRatio) ? ratioText(articleRatio) : '' },
        bands: bandsOf(finding), anchor, cells: {},
      };
      for (const col of columns) {
        const m = models[col.run];
        if (!ran(m, scenario)) { row.cells[col.key] = { status: NOT_RUN, reason: '', bands: null, ratio: null, ratioText: '' }; continue; }
        // a finding across servers (zstd against none) or published only is one verdict for the whole run
        const v = m.verdicts.find(({ identity: id }) => id.scenario === scenario.name && id.finding === finding.id && (id.scope !== 'server' || id.server === col.server));
        if (!v) { row.cells[col.key] = { status: NOT_RUN, reason: 'not measured on this server', bands: null, ratio: null, ratioText: '' }; continue; }
        row.cells[col.key] = cellOf(v, finding, anchor);
      }
      if (!decidesByMeasurement(finding)) article.publishedOnly = [...(article.publishedOnly || []), row];
      else if (row.kit) kitRows.push(row);
      else article.rows.push(row);
    }
    // the findings no server today can run fold into one row: the article's claims, the reason once
    if (article.publishedOnly?.length) {
      const first = article.publishedOnly[0];
      article.foldedRow = {
        id: 'published-only', scenario: scenario.name, folded: article.publishedOnly,
        claim: `${article.publishedOnly.length} finding${article.publishedOnly.length === 1 ? '' : 's'} about what no server today runs: ${article.publishedOnly.map((r) => r.claim).join('; ')}`,
        // what "published only" means, said once for the row; each cell's reason in brief (published.json's reasonInBrief)
        published: article.publishedOnly.map((r) => r.published).join('; '), rule: 'not decided by a measurement', kit: false,
        article: { ratio: null, text: article.publishedOnly.map((r) => r.article.text).filter(Boolean).join(', ') }, bands: null,
        anchor: anchorOf('finding', scenario.name, 'published-only'), cells: Object.fromEntries(Object.entries(first.cells).map(([k, c]) => [k, { ...c, reason: first.finding.check.reasonInBrief ?? c.reason }])),
      };
    }
    articles.push(article);
  }

  const allRows = [...articles.flatMap((a) => [...a.rows, ...(a.foldedRow ? [a.foldedRow] : [])]), ...kitRows];
  const tally = Object.fromEntries(STATUSES.map((s) => [s, 0]));
  for (const row of allRows) for (const cell of Object.values(row.cells)) if (cell.status in tally) tally[cell.status] += 1;
  return { runs: models, columns, articles, kitRows, rows: allRows, tally };
}

module.exports = {
  buildReportModel, bandsOf, anchorOf, STATUSES, NOT_RUN,
};
