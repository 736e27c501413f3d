'use strict';
// A verdict, made once by the analysis and only read after (criterion.rs's Estimate): the one
// constructor every verdict goes through, so every view and verdicts.json find the same fields
// whatever check made it. It is frozen, nested parts too: a view that wants another figure asks
// the analysis, never patches one in.
//
// Its shape (orchestrator/schemas/verdict.schema.json holds it as verdicts.json writes it):
//   finding, scenario, server, status, kit
//   estimate: { ratio, lo, hi, n, se, pairs, scope, acrossRuns? }  the measured ratio, its 95% interval, the
//                                              pairs it rests on; scope 'within-run', or 'across-runs' with
//                                              acrossRuns { ratio, lo, hi, runs, df, ... } (across-runs.js)
//   article:  { ratio, clock }                 the article's figure (published.json's `figure`) and its clock
//   clock, field, thresholds, reasons: [{ code, ...figures }]
// and beside them what the figures rest on (dropped, outliers, drift, contention, floors...).
// ratio, lo, hi, n, se, pairs, articleRatio and articleClock stay at the top level too: they are
// verdicts.json's columns, which notebooks read (docs/outputs.md).
const { InternalError } = require('../errors');

/** Freezes an object and everything inside it. */
function deepFreeze(value) {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

const finiteOrNull = (x) => (Number.isFinite(x) ? x : null);

/**
 * A verdict from the analysis's fields: { finding, scenario, server, status, ratio, lo, hi, n,
 * se, pairs, articleRatio, articleClock, clock, thresholds, reasons, ... }. Returns a frozen
 * Verdict with its estimate and the article's figure grouped as well.
 */
function makeVerdict(fields) {
  const { finding, scenario, server, status } = fields;
  if (!finding || typeof scenario !== 'string' || !server || !status) throw new InternalError(`a verdict needs its finding, scenario, server and status (got ${JSON.stringify({ finding, scenario, server, status })})`);
  const figures = {
    ratio: finiteOrNull(fields.ratio), lo: finiteOrNull(fields.lo), hi: finiteOrNull(fields.hi), n: fields.n ?? 0, se: finiteOrNull(fields.se), pairs: fields.pairs ?? [],
  };
  const article = { ratio: finiteOrNull(fields.articleRatio), clock: fields.articleClock ?? null };
  return deepFreeze({
    ...fields,
    ...figures,
    articleRatio: article.ratio,
    articleClock: article.clock,
    clock: fields.clock ?? null,
    thresholds: fields.thresholds ?? null,
    reasons: fields.reasons ?? [],
    // scope: whether the interval above is the run's own (within-run) or, where the history held
    // enough comparable runs (analysis/across-runs.js), acrossRuns beside it decided the status
    estimate: { ...figures, pairs: [...figures.pairs], scope: fields.acrossRuns ? 'across-runs' : 'within-run', ...(fields.acrossRuns ? { acrossRuns: fields.acrossRuns } : {}) },
    article,
  });
}

module.exports = { makeVerdict, deepFreeze };
