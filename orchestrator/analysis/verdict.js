'use strict';
// A verdict, made once by the analysis and only read after (criterion.rs's Estimate): the one
// constructor every verdict goes through, closed and frozen, so every view and verdicts.json find
// the same fields whatever check made it. A view that wants another figure asks the analysis,
// never patches one in, and never normalises one again: makeVerdict has made every figure finite
// or null and every list a list.
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
// Its shape, and nothing else (an unknown field throws):
//   identity:   { scenario, finding, scope, server, servers, kit }  scope 'server' (judged on the
//               server named), 'all-servers' (a finding across servers: servers names the two it
//               compared, or null where the run lacked one) or 'article' (a finding only
//               published: no server judged it); kit: the kit's own question, not the article's
//   status:     one of rules.js's STATUSES
//   estimate:   { ratio, lo, hi, n, se, df, method, pairs, runs, scope, acrossRuns, field, clock,
//               onArticleClock }  the measured ratio, its 95% interval and the pairs it rests on,
//               on the field (and its clock) that decided it; scope 'within-run', or 'across-runs'
//               with acrossRuns (across-runs.js); onArticleClock: the same comparison on the
//               article's clock where that differs, else null
//   article:    { ratio, clock, field }  the article's figure (published.json's `figure`) and its clock
//   thresholds: the rule the interval was held to (rules.js), or null
//   reasons:    [{ code, ...figures }]  (reasons.js says each in words)
//   evidence:   { dropped, outliers, drift, contention, floors, context, mechanism, shared,
//               measuredInstead }  what the figures rest on (evidence.js), what the server did
//               that a reader needs beside them, and where the finding could not be tested, what
//               was measured instead
//   detail:     { kind, ... }  the check kind's own figures (analysis/checks/: each kind's
//               detailFields: a near's points, a growth's flat series, a crossing's ends)
//   conditions: what each side of the comparison promised about a write, or null (issue 47)
//
// toJSON() is verdicts.json's record (orchestrator/schemas/verdict.schema.json): the groups laid
// out as the file's columns, with the reason and the detail in words. The same column names read
// off a Verdict (v.ratio, v.server, v.points, ...) are getters into the groups, for the views
// that print a column by its name; none of them is a field of its own.
const { kindOf } = require('./checks');
const { STATUSES } = require('./rules');
const { reasonWords } = require('./reasons');
const { detailText } = require('./verdict-words');

/** Freezes an object and everything inside it. */
function deepFreeze(value) {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

const finiteOrNull = (x) => (Number.isFinite(x) ? x : null);

const GROUPS = ['identity', 'status', 'estimate', 'article', 'thresholds', 'reasons', 'evidence', 'detail', 'conditions'];
const FIELDS = {
  identity: ['scenario', 'finding', 'scope', 'server', 'servers', 'kit'],
  estimate: ['ratio', 'lo', 'hi', 'n', 'se', 'df', 'method', 'pairs', 'runs', 'scope', 'acrossRuns', 'field', 'clock', 'onArticleClock'],
  article: ['ratio', 'clock', 'field'],
  evidence: ['dropped', 'outliers', 'drift', 'contention', 'floors', 'context', 'mechanism', 'shared', 'measuredInstead'],
};
/** What a finding across servers adds to its kind's detail, whatever the kind (judge.js judgeAcross): each server's side, and the other servers' ratios shown beside (snappy's). */
const ACROSS_DETAIL = ['sides', 'also'];
/** Where a verdict was judged: on one server, across the run's servers, or nowhere (the article's figure alone). */
const SCOPES = ['server', 'all-servers', 'article'];
/** A scope in the words verdicts.json's `server` column has always said, where no one server judged it. */
const SCOPE_WORDS = { 'all-servers': 'all servers', article: 'the article\'s' };

/** Throws where an object has a key its group does not know. */
function closed(group, value, known) {
  const unknown = Object.keys(value || {}).filter((k) => !known.includes(k));
  if (unknown.length) throw new InternalError(`a verdict's ${group} has no field ${unknown.join(', ')} (its fields: ${known.join(', ')})`);
  return value || {};
}

/** The estimate's figures as a verdict keeps them: every figure finite or null, every list a list. */
function estimateOf(e) {
  return {
    ratio: finiteOrNull(e.ratio), lo: finiteOrNull(e.lo), hi: finiteOrNull(e.hi), n: e.n ?? 0, se: finiteOrNull(e.se), df: e.df ?? null,
    method: e.method ?? null, pairs: [...(e.pairs ?? [])], ...(e.runs ? { runs: e.runs } : {}),
    // scope: whether the interval above is the run's own (within-run) or, where the history held
    // enough comparable runs (analysis/across-runs.js), acrossRuns beside it decided the status
    scope: e.acrossRuns ? 'across-runs' : 'within-run', ...(e.acrossRuns ? { acrossRuns: e.acrossRuns } : {}),
    field: e.field ?? null, clock: e.clock ?? null, onArticleClock: e.onArticleClock ?? null,
  };
}

/** A verdict: the nine groups, frozen; its columns read through getters; toJSON, its verdicts.json record. */
class Verdict {
  constructor(groups) {
    Object.assign(this, groups);
    deepFreeze(this);
  }

  /** verdicts.json's record of this verdict, each column in its place (docs/outputs.md). */
  toJSON() {
    const { estimate: e, evidence: ev, detail: d } = this;
    const short = (x) => (x ? { ratio: finiteOrNull(x.ratio), lo: finiteOrNull(x.lo), hi: finiteOrNull(x.hi), n: x.n ?? 0 } : null);
    return {
      finding: this.identity.finding,
      scenario: this.identity.scenario,
      server: this.server,
      ...(this.identity.servers ? { servers: this.identity.servers } : {}),
      status: this.status,
      estimate: { ratio: e.ratio, lo: e.lo, hi: e.hi, n: e.n, se: e.se, pairs: e.pairs, scope: e.scope, ...(e.acrossRuns ? { acrossRuns: e.acrossRuns } : {}) },
      article: { ratio: this.article.ratio, clock: this.article.clock },
      // the estimate's figures again as flat columns, which notebooks read
      ratio: e.ratio,
      lo: e.lo,
      hi: e.hi,
      n: e.n,
      // the standard error of the mean log-ratio: lo and hi are exp(log ratio ∓ t × se)
      se: e.se,
      // the degrees of freedom of its t: n − 1, or the runs combined less one (--repeat)
      df: e.df,
      method: e.method,
      // what it rests on: each pair's ratio (n numbers, in the rounds' order), the blocks left out and
      // why (warm-up, incomplete, partner-missing, unusable, run-too-few-pairs), the outliers among the
      // pairs (Tukey's fences on their logs), the drift over the rounds, how busy the machine was
      // during its blocks (null: not measured) and each side's median block against its floor
      pairs: e.pairs,
      ...(e.runs ? { runs: e.runs } : {}),
      dropped: ev.dropped,
      outliers: ev.outliers,
      drift: ev.drift,
      contention: ev.contention,
      floors: ev.floors,
      clock: e.clock,
      field: e.field,
      articleRatio: this.article.ratio,
      articleClock: this.article.clock,
      articleClockRatio: short(e.onArticleClock),
      // the rule the interval was held to: what the article claimed of its figure (order, about) or a direction alone
      thresholds: this.thresholds ? {
        says: this.thresholds.says, direction: this.thresholds.direction, holdsAt: this.thresholds.holdsAt, failsAt: this.thresholds.failsAt,
        ...(this.thresholds.figure !== undefined ? { figure: this.thresholds.figure } : {}), ...(this.thresholds.upTo !== undefined ? { upTo: this.thresholds.upTo } : {}),
      } : null,
      reason: reasonWords(this.reasons),
      reasons: this.reasons,
      ...(Number.isFinite(d.at) ? { at: d.at } : {}),
      ...(Number.isFinite(d.ref) ? { ref: d.ref } : {}),
      ...(d.points ? { points: d.points.map((p) => ({ x: p.x, ...short(p), status: p.status })) } : {}),
      ...(d.flat ? { flat: { ...short(d.flat), status: d.flat.status, holdsAt: d.flat.holdsAt, failsAt: d.flat.failsAt } } : {}),
      ...(d.articleAtRunSize ? { articleAtRunSize: d.articleAtRunSize } : {}),
      ...(d.crossing ? { crossing: d.crossing } : {}),
      ...(d.also?.length ? { also: d.also } : {}),
      ...(d.sides ? { sides: d.sides } : {}),
      context: ev.context,
      mechanism: ev.mechanism,
      sharedMachine: ev.shared,
      ...(ev.measuredInstead ? { measuredInstead: { status: ev.measuredInstead.status, reasons: ev.measuredInstead.reasons } } : {}),
      kit: this.identity.kit,
      detail: detailText(this),
      ...(this.conditions ? { conditions: this.conditions } : {}),
    };
  }
}

/** verdicts.json's column names, each read from its group (no field of its own). */
const COLUMNS = {
  finding: (v) => v.identity.finding,
  scenario: (v) => v.identity.scenario,
  server: (v) => v.identity.server ?? SCOPE_WORDS[v.identity.scope],
  servers: (v) => v.identity.servers ?? undefined,
  kit: (v) => v.identity.kit,
  ...Object.fromEntries(['ratio', 'lo', 'hi', 'n', 'se', 'df', 'method', 'pairs', 'runs', 'acrossRuns', 'field', 'clock'].map((k) => [k, (v) => v.estimate[k]])),
  articleClockEstimate: (v) => v.estimate.onArticleClock,
  articleRatio: (v) => v.article.ratio,
  articleClock: (v) => v.article.clock,
  ...Object.fromEntries(['dropped', 'outliers', 'drift', 'contention', 'floors', 'context', 'mechanism', 'shared'].map((k) => [k, (v) => v.evidence[k]])),
  measuredInstead: (v) => v.evidence.measuredInstead ?? undefined,
  ...Object.fromEntries(['at', 'ref', 'points', 'flat', 'crossing', 'also', 'sides', 'articleAtRunSize'].map((k) => [k, (v) => v.detail[k]])),
};
for (const [name, read] of Object.entries(COLUMNS)) Object.defineProperty(Verdict.prototype, name, { get() { return read(this); } });

/**
 * A verdict from its groups (above): { identity, status, estimate, article, thresholds, reasons,
 * evidence, detail, conditions }, and nothing else. Returns a frozen Verdict, each figure finite
 * or null, each list a list, each absent part its empty value.
 */
function makeVerdict(groups) {
  closed('groups', groups, GROUPS);
  const identity = closed('identity', groups.identity, FIELDS.identity);
  const { scenario, finding, scope = 'server' } = identity;
  const { status } = groups;
  if (!finding || typeof scenario !== 'string' || !status) throw new InternalError(`a verdict needs its finding, scenario and status (got ${JSON.stringify({ finding, scenario, status })})`);
  if (!SCOPES.includes(scope)) throw new InternalError(`a verdict's scope is one of ${SCOPES.join(', ')}, not ${scope}`);
  if ((scope === 'server') !== (typeof identity.server === 'string' && identity.server.length > 0)) throw new InternalError(`a verdict names its server where its scope is 'server', and only there (got ${JSON.stringify({ scope, server: identity.server })})`);
  if (!STATUSES.includes(status)) throw new InternalError(`a verdict's status is one of ${STATUSES.join(', ')}, not ${status}`);
  const article = closed('article', groups.article, FIELDS.article);
  const evidence = closed('evidence', groups.evidence, FIELDS.evidence);
  const detail = groups.detail || {};
  const kind = kindOf(detail.kind);
  if (!kind) throw new InternalError(`a verdict's detail is tagged by its check kind, not ${detail.kind}`);
  closed(`detail (${kind.kind})`, detail, ['kind', ...(kind.detailFields || []), ...(identity.scope === 'all-servers' ? ACROSS_DETAIL : [])]);
  return new Verdict({
    identity: { scenario, finding, scope, server: scope === 'server' ? identity.server : null, servers: identity.servers ?? null, kit: Boolean(identity.kit) },
    status,
    estimate: estimateOf(closed('estimate', groups.estimate, FIELDS.estimate)),
    article: { ratio: finiteOrNull(article.ratio), clock: article.clock ?? null, field: article.field ?? null },
    thresholds: groups.thresholds ?? null,
    reasons: [...(groups.reasons ?? [])],
    evidence: {
      dropped: evidence.dropped ?? [], outliers: evidence.outliers ?? [], drift: evidence.drift ?? null, contention: evidence.contention ?? null,
      floors: evidence.floors ?? [], context: evidence.context ?? [], mechanism: evidence.mechanism ?? null, shared: Boolean(evidence.shared),
      measuredInstead: evidence.measuredInstead ?? null,
    },
    detail: Object.fromEntries(Object.entries(detail).filter(([, x]) => x !== undefined)),
    conditions: groups.conditions ?? null,
  });
}

module.exports = { makeVerdict, deepFreeze, Verdict, SCOPES, SCOPE_WORDS };
