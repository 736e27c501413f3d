'use strict';
// verdicts.json: every verdict of a run as data, one object per finding × server, for whoever
// takes the results elsewhere (a notebook, a spreadsheet, another page). The fields are the
// analysis's own (orchestrator/analysis/judge.js); docs/outputs.md gives the schema. With several
// runs side by side, each object names its run.
const { reasonWords } = require('../analysis/reasons');
const { detailText } = require('../analysis/verdict-words');
const { findingOfScenarios } = require('../analysis/run-model');

/** Numbers as JSON keeps them: a figure that is not finite is null. */
const num = (x) => (Number.isFinite(x) ? x : null);
const estimate = (e) => (e ? { ratio: num(e.ratio), lo: num(e.lo), hi: num(e.hi), n: e.n ?? 0 } : null);

/** One verdict as verdicts.json holds it. findingOf(v): the published finding it is of. */
function verdictRecord(v, finding, run = null) {
  return {
    ...(run ? { run } : {}),
    finding: v.finding,
    scenario: v.scenario,
    server: v.server,
    ...(v.servers ? { servers: v.servers } : {}),
    status: v.status,
    // the Verdict's own groups (analysis/verdict.js makeVerdict, which made every figure finite or
    // null); the columns below repeat their figures flat
    estimate: v.estimate,
    article: v.article,
    ratio: v.ratio,
    lo: v.lo,
    hi: v.hi,
    n: v.n,
    // the standard error of the mean log-ratio: lo and hi are exp(log ratio ∓ t × se)
    se: v.se,
    // the degrees of freedom of its t: n − 1, or the runs combined less one (--repeat)
    df: v.df ?? null,
    method: v.method ?? null,
    // what it rests on: each pair's ratio (n numbers, in the rounds' order), the blocks left out and
    // why (warm-up, incomplete, partner-missing, unusable, run-too-few-pairs), the outliers among the
    // pairs (Tukey's fences on their logs), the drift over the rounds, how busy the machine was
    // during its blocks (null: not measured) and each side's median block against its floor
    pairs: v.pairs ?? [],
    ...(v.runs ? { runs: v.runs } : {}),
    dropped: v.dropped ?? [],
    outliers: v.outliers ?? [],
    drift: v.drift ?? null,
    contention: v.contention ?? null,
    floors: v.floors ?? [],
    clock: v.clock ?? null,
    field: v.field ?? null,
    articleRatio: v.articleRatio,
    articleClock: v.articleClock ?? null,
    articleClockRatio: estimate(v.articleClockEstimate),
    // the rule the interval was held to: what the article claimed of its figure (order, about) or a direction alone
    thresholds: v.thresholds ? {
      says: v.thresholds.says, direction: v.thresholds.direction, holdsAt: v.thresholds.holdsAt, failsAt: v.thresholds.failsAt,
      ...(v.thresholds.figure !== undefined ? { figure: v.thresholds.figure } : {}), ...(v.thresholds.upTo !== undefined ? { upTo: v.thresholds.upTo } : {}),
    } : null,
    reason: reasonWords(v.reasons || []),
    reasons: v.reasons || [],
    ...(Number.isFinite(v.at) ? { at: v.at } : {}),
    ...(Number.isFinite(v.ref) ? { ref: v.ref } : {}),
    ...(v.points ? { points: v.points.map((p) => ({ x: p.x, ...estimate(p), status: p.status })) } : {}),
    ...(v.flat ? { flat: { ...estimate(v.flat), status: v.flat.status, holdsAt: v.flat.holdsAt, failsAt: v.flat.failsAt } } : {}),
    ...(v.articleAtRunSize ? { articleAtRunSize: v.articleAtRunSize } : {}),
    ...(v.crossing ? { crossing: v.crossing } : {}),
    ...(v.also?.length ? { also: v.also } : {}),
    ...(v.sides ? { sides: v.sides } : {}),
    // whether the two sides did the same work (analysis/conditions.js); absent where the run recorded no store settings
    ...(v.conditions ? { conditions: v.conditions } : {}),
    context: v.context || [],
    mechanism: v.mechanism ?? null,
    sharedMachine: Boolean(v.shared),
    ...(v.measuredInstead ? { measuredInstead: { status: v.measuredInstead.status, reasons: v.measuredInstead.reasons } } : {}),
    kit: Boolean(v.kit),
    detail: detailText(v, finding),
  };
}

/** verdicts.json's text for one or more analysed runs: [{ label, verdicts }]; findingOf(v) as above. */
function verdictsJson(runs, findingOf) {
  const many = runs.length > 1;
  const all = runs.flatMap((r) => r.verdicts.map((v) => verdictRecord(v, findingOf(v), many ? r.label : null)));
  return `${JSON.stringify(all, null, 2)}\n`;
}

const FILE = 'verdicts.json';

/** The exporters' shape (report/exporters.js): the verdicts of a page's run models, as verdicts.json's text. */
function render({ runs, scenarios }) {
  return verdictsJson(runs, findingOfScenarios(scenarios));
}

module.exports = { FILE, render, verdictsJson };
