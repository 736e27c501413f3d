'use strict';
// --size auto: how much of an article's workload fits a time budget on a server. A pure function
// of the scenario's descriptor (its scaling declaration: what scales, what must not, each step's
// operations and what makes them dearer as the size grows, the smallest size each finding
// needs), the probes (the scenario's own steps timed at a few small sizes on that server) and
// the calibration (the server's per-operation time, a floor under every operation a step
// sends), each step's time predicted by its model (model.js). The run module does the measuring;
// everything here is arithmetic, tested as such.
const { roundUpBudget } = require('./duration');
const { ruleOf, statusOf, DECIDED } = require('../analysis/rules');
const { kindOf, decidesByMeasurement } = require('../analysis/checks');
const {
  DEFAULT_ROUNDS, CALIBRATION_FLOOR_SHARE, fittedProbes, sizesNeeded, nonNegativeFit, calibratedOpMs, beyondCacheMs, fitSteps, stepMs, predictMs, modelText,
} = require('./model');

/**
 * How far past its floor (minSpanMs) the planner aims each side's median block. The analysis
 * holds each side's median counted block to the floor; the median is predicted from probes at a
 * small part of the run's size, often taken with other work on the machine, and a run on a
 * quieter machine (or the reverse) moves a block's span by up to about half: aimed at twice the
 * floor, a side the size table promises clears it on a loaded machine and on a quiet one. (Aimed
 * at 1.5x the shortest probe block, through the origin, log-inserts' SQL blocks of test 1 ran at
 * 97 ms against 100 and those of test 2 at 338 to 466 ms against 500: a probe's small blocks are
 * mostly their fixed cost, which a line through the origin reads as a cost per record.)
 */
const SPAN_MARGIN = 2;
/**
 * The least margin at which the size table still promises a step's findings where the budget
 * cannot raise its sides to SPAN_MARGIN (embedded-comments' TOTAL goes from 5,000 to 10,000 in
 * one step): a side predicted at 1.5 times its floor clears it in a run a third faster than its
 * probes. Below it, the findings decided on the step's blocks are not promised, and the table
 * says so.
 */
const PROMISE_MARGIN = 1.5;

/**
 * The share of the budget a scenario gets on servers where it can decide none of its findings
 * (its tables and charts only): a quarter, so that the main job's time goes to the findings it
 * can decide (issue 44: the main job within 15 minutes on ferretdb2, deciding what it did at 4).
 */
const NOTHING_TO_DECIDE_SHARE = 0.25;


/** The shortest span, in ms, a side's median block may have for a verdict, where a step declares none of its own. */
const MIN_SPAN_MS = 100;
/** The probes grow until the largest one's own work reaches this share of the budget (within the bounds below). */
const PROBE_SHARE = 0.08;
const PROBE_TARGET_MS = { min: 2000, max: 40000 };
/** At most this many probes of a scenario on a server, the smallest included. */
const MAX_PROBES = 5;

const sizeNames = (descriptor) => Object.keys(descriptor.sizes.article).filter((k) => k !== 'passes');
const leadOf = (descriptor) => Object.keys(descriptor.scaling.vary)[0];

/** The smallest value a variable may take at or above v (one of its allowed values, at most the article's). */
function snapUp(decl, full, v) {
  if (decl?.values) return decl.values.find((x) => x >= v) ?? full;
  return Math.min(full, Math.max(decl?.least ?? 1, Math.ceil(v)));
}

/** One variable at fraction f of the article: one of its allowed values, never below its least. */
function scaledValue(decl, full, f) {
  if (f >= 1) return full;
  const target = full * f;
  if (decl.values) {
    const fit = decl.values.filter((v) => v <= target + 1e-9);
    return fit.length ? fit.at(-1) : decl.values[0];
  }
  return Math.min(full, Math.max(decl.least ?? 1, Math.round(target)));
}

/** The scenario's sizes at fraction f of the article: varying variables scaled, fixed ones the article's, pinned ones (--set) as given. */
function sizesAt(descriptor, f, pinned = {}) {
  const { article } = descriptor.sizes;
  const { vary } = descriptor.scaling;
  return Object.fromEntries(sizeNames(descriptor).map((name) => {
    if (name in pinned) return [name, pinned[name]];
    if (!(name in vary)) return [name, article[name]];
    return [name, scaledValue(vary[name], article[name], f)];
  }));
}

/** How much of the article a set of sizes is: its leading varying variable's share. */
function fractionOf(descriptor, sizes) {
  const lead = leadOf(descriptor);
  return sizes[lead] / descriptor.sizes.article[lead];
}

/** Each variable at least as large in a as in b. */
function atLeastAll(a, b) {
  return Object.fromEntries(Object.entries(a).map(([k, v]) => [k, Math.max(v, b[k] ?? v)]));
}

/**
 * Every varying variable of sizes times k (one of its allowed values, within its least and the
 * article's): a probe k times another in each of its variables, so every step's terms move.
 */
function scaleSizes(descriptor, sizes, k, pinned = {}) {
  const { article } = descriptor.sizes;
  return Object.fromEntries(Object.entries(sizes).map(([name, v]) => {
    const decl = descriptor.scaling.vary[name];
    if (!decl || name in pinned) return [name, v];
    return [name, scaledValue(decl, article[name], Math.min(1, (v * k) / article[name]))];
  }));
}

function sameSizes(a, b) {
  return Object.keys(a).every((k) => a[k] === b[k]);
}

// --- probes -------------------------------------------------------------------------------

/** How long the largest probe's own work should take for this budget. */
function probeTargetMs(budgetSeconds) {
  return Math.min(PROBE_TARGET_MS.max, Math.max(PROBE_TARGET_MS.min, budgetSeconds * 1000 * PROBE_SHARE));
}


/** A probe's time less the steps' known fixed waits (the parallel steps' start): its work. */
function probeWorkMs(probe, fixedMs = {}) {
  return Object.entries(probe.steps).reduce((n, [name, s]) => n + Math.max(0, s.ms - (fixedMs[name] || 0)), 0);
}

/**
 * The sizes of the next probe of a scenario on a server, or null when the probes so far say
 * enough: the first is the smallest sizes the scenario allows (a warm-up, not fitted:
 * fittedProbes), the second the descriptor's probe sizes; then the largest so far grows by the square root of what separates
 * its work from the target (so a cost that grows with the square of the size reaches the
 * target, not the square of it), 2 to 8 times, until its work reaches a third of the target.
 * A step whose operations grow dearer with the size, or whose parts cost something of their
 * own, needs a size more for each to tell them from its fixed cost and its cost per operation:
 * where the largest is long enough already, the next is half its size in every variable (or,
 * where that is a size probed already, a quarter or three quarters of it, or 1.5 or 2 times it).
 */
function nextProbeSizes(descriptor, { done = [], fixedMs = {}, budgetSeconds, pinned = {} }) {
  const floor = sizesAt(descriptor, 0, pinned);
  const declared = atLeastAll({ ...floor, ...Object.fromEntries(Object.entries(descriptor.scaling.probe || {}).filter(([k]) => !(k in pinned))) }, floor);
  if (done.length === 0) return floor;
  if (done.length === 1 && !sameSizes(declared, done[0].sizes)) return declared;
  if (done.length >= MAX_PROBES) return null;
  const fresh = (sizes) => (done.some((p) => sameSizes(p.sizes, sizes)) ? null : sizes);
  const largest = done.reduce((a, b) => (fractionOf(descriptor, b.sizes) > fractionOf(descriptor, a.sizes) ? b : a));
  const f = fractionOf(descriptor, largest.sizes);
  const work = probeWorkMs(largest, fixedMs);
  const target = probeTargetMs(budgetSeconds);
  if (work < target / 3 && f < 1) {
    const r = Math.min(8, Math.max(2, Math.sqrt(target / Math.max(work, 1))));
    const next = fresh(scaleSizes(descriptor, largest.sizes, r, pinned));
    if (next) return next;
  }
  const distinct = new Set(fittedProbes(done).map((p) => JSON.stringify(p.sizes))).size;
  if (distinct >= sizesNeeded(descriptor)) return null;
  // half the largest where that is a size of its own; else (the smallest sizes are near) a little larger
  for (const k of [0.5, 0.25, 0.75, 1.5, 2]) {
    const next = fresh(scaleSizes(descriptor, largest.sizes, k, pinned));
    if (next) return next;
  }
  return null;
}

// --- timed spans --------------------------------------------------------------------------

/** ms in a value of a timed field, by its name's unit; null for a field that is no span (a mean per operation in µs, a size). */
function spanMsOf(field, value) {
  if (!Number.isFinite(value)) return null;
  if (/(^ms|Ms)$/.test(field)) return value;
  if (/(^seconds|Seconds)$/.test(field)) return value * 1000;
  return null;
}

/**
 * A step's floor: the shortest span its sides' median blocks may have for a verdict (timer
 * resolution and per-block overhead would otherwise weigh in the ratio). The one source of it,
 * for the planner and the analysis alike.
 */
function minSpanMs(descriptor, stepName) {
  return descriptor?.scaling?.spans?.[stepName]?.minMs ?? MIN_SPAN_MS;
}

/**
 * A side's median block as a line in the variable that lengthens it, fitted through its probes:
 * { fixedMs, perUnitMs, fitted }, neither negative. A block's fixed part (a barrier, a meeting, a
 * turn) is most of a probe's small block: fitted with an intercept, it is not read as a cost per
 * unit. Probes at one value only, or a fit that finds no cost per unit, give a line through the
 * origin. fitted: whether the probes told a fixed part above 0 apart from the cost per unit (the
 * size record's fixedMs, which the analysis weighs a short block's fixed cost by).
 */
function spanLine(points) {
  if (new Set(points.map((p) => p.v)).size >= 2) {
    const fit = nonNegativeFit(points.map((p) => ({ c: 1, v: p.v, y: p.y })), ['c', 'v']);
    if (fit.v > 0) return { fixedMs: fit.c, perUnitMs: fit.v, fitted: fit.c > 0 };
  }
  const den = points.reduce((n, p) => n + p.v * p.v, 0);
  return { fixedMs: 0, perUnitMs: den ? points.reduce((n, p) => n + p.v * p.y, 0) / den : null, fitted: false };
}

/**
 * The most of a fixed cost a side's block may carry, for a verdict or a promise on a short step:
 * SPAN_MARGIN times the probes' fitted fixed cost of its block (a probe's span may be off by about
 * half: SPAN_MARGIN), where they fitted one (the size record's spans: fixedMs), else the step's
 * floor itself. { ms, fittedMs (null where none was fitted), from: 'fitted' | 'floor' }.
 */
function fixedCostBound(span, side, minMs) {
  const fitted = span?.fixedMs?.[side];
  return Number.isFinite(fitted) ? { ms: SPAN_MARGIN * fitted, fittedMs: fitted, from: 'fitted' } : { ms: minMs, fittedMs: null, from: 'floor' };
}

/**
 * For each step that declares its figures' span and the variable that lengthens it: each side's
 * median block (the probes' `sides`, the SQL baseline's among them) as a line in that variable:
 * { raise, minMs, sides: { side: { fixedMs, perUnitMs } } }. A probe that gives only the step's
 * shortest span (spanMs) stands for one side.
 */
function fitSpans(descriptor, { probes }) {
  return Object.fromEntries(Object.entries(descriptor.scaling.spans || {}).filter(([, s]) => s.raise).map(([step, s]) => {
    const points = {};
    for (const p of fittedProbes(probes)) {
      const at = p.steps?.[step];
      const sides = at?.sides ?? (Number.isFinite(at?.spanMs) ? { all: at.spanMs } : {});
      for (const [side, ms] of Object.entries(sides)) if (Number.isFinite(ms)) (points[side] ??= []).push({ v: p.sizes[s.raise], y: ms });
    }
    return [step, { raise: s.raise, minMs: s.minMs ?? MIN_SPAN_MS, sides: Object.fromEntries(Object.entries(points).map(([side, list]) => [side, spanLine(list)])) }];
  }));
}

/** Each side's predicted median block at a value of the span's variable: { side: ms }. */
function sideSpansAt(span, value) {
  return Object.fromEntries(Object.entries(span.sides).filter(([, l]) => l.perUnitMs !== null).map(([side, l]) => [side, l.fixedMs + l.perUnitMs * value]));
}

/**
 * The value of a span's variable at which every side's median block is predicted at SPAN_MARGIN
 * times the floor, at most the article's; null where no side was measured.
 */
function neededForSpan(span, full) {
  const lines = Object.values(span.sides).filter((l) => l.perUnitMs !== null);
  if (!lines.length) return null;
  const target = SPAN_MARGIN * span.minMs;
  return Math.min(full, Math.max(1, ...lines.map((l) => (l.fixedMs >= target ? 1 : l.perUnitMs > 0 ? Math.ceil((target - l.fixedMs) / l.perUnitMs) : full))));
}

// --- the choice ---------------------------------------------------------------------------

/** The largest fraction f in [0, 1] for which ok(f) holds, ok being monotone; null if not even 0. */
function largestFraction(ok) {
  if (ok(1)) return 1;
  if (!ok(0)) return null;
  let lo = 0;
  let hi = 1;
  for (let i = 0; i < 40; i++) {
    const mid = (lo + hi) / 2;
    if (ok(mid)) lo = mid; else hi = mid;
  }
  return lo;
}

/**
 * The steps a finding's figures come from: the steps its check's selections name, else every
 * step whose spans the scenario declares (a selection by other fields may match any of them).
 */
function findingSteps(finding, descriptor) {
  const c = finding?.check || {};
  const named = [c.num, c.den, c.where, c.grows, c.flat?.where].filter(Boolean).map((sel) => sel.step).filter(Boolean);
  return named.length ? [...new Set(named)] : Object.keys(descriptor.scaling?.spans || {});
}

/**
 * The findings a plan can decide on a kind of server, and those its size is too small for. A
 * finding across servers (across) is counted only on a server that runs paired with the other
 * server it needs (paired: run/pairs.js).
 */
function findingsAt(descriptor, findings, kind, sizes, { paired = false } = {}) {
  const cannot = descriptor.servers?.[kind]?.cannotTest || {};
  const decidable = [];
  const tooSmall = [];
  for (const f of findings) {
    if (!decidesByMeasurement(f) || (f.across && !paired) || f.id in cannot) continue;
    const need = descriptor.scaling.findings?.[f.id]?.atLeast || {};
    const short = Object.entries(need).filter(([k, v]) => sizes[k] < v);
    if (short.length) tooSmall.push({ id: f.id, atLeast: need, why: descriptor.scaling.findings[f.id].why });
    else decidable.push(f.id);
  }
  return { decidable, tooSmall };
}

/**
 * The plan of one scenario on each server: { server, sizes, fraction, budgetSeconds,
 * predictedSeconds, fits, model, spans, findings }. By default one size for all servers, the
 * largest that fits on each of them (their tables line up); perServer gives each its own. Spans
 * first: a step whose shortest timed figure would be too short for a verdict has its count
 * raised (within the article's) before the rest is fitted around it; where even that does not
 * fit the budget, the plan goes without the raise and says so.
 */
function planScenario({ descriptor, findings = [], budgetSeconds, passes, pinned = {}, servers, perServer = false, together = [], shell = 'kit', rounds = DEFAULT_ROUNDS }) {
  const budgetMs = budgetSeconds * 1000;
  const fitted = servers.map((s) => ({
    ...s,
    models: fitSteps(descriptor, s.probe, { calibration: s.calibration, shell, kind: s.kind, rounds }),
    spans: fitSpans(descriptor, s.probe),
  }));
  // servers that run the scenario paired (together: lists of server names) share one size even
  // where each would have its own: both must write and read the same data
  const groups = perServer ? fitted.map((s) => [s]) : [fitted];
  for (const names of together) {
    const joined = groups.filter((g) => g.some((s) => names.includes(s.server)));
    if (joined.length < 2) continue;
    groups.splice(groups.indexOf(joined[0]), 1, joined.flat());
    joined.slice(1).forEach((g) => groups.splice(groups.indexOf(g), 1));
  }
  return groups.flatMap((group) => {
    // a scenario that can decide none of its findings on these servers, at any size, runs its
    // tables and charts on a share of the budget: the rest is no verdict's time (a pair decides
    // the findings across its two servers)
    const decides = group.some((s) => findingsAt(descriptor, findings, s.kind, descriptor.sizes.article, { paired: Boolean(s.paired) }).decidable.length > 0);
    const share = decides ? 1 : NOTHING_TO_DECIDE_SHARE;
    return planGroup({ descriptor, findings, group, budgetMs: budgetMs * share, passes, pinned, shell })
      .map((p) => (decides ? p : { ...p, budgetShare: share, budgetWhy: 'it can decide none of its findings here' }));
  });
}

/**
 * Whether a finding decided on a step predicted short is promised all the same: a ratio of two
 * sides the probes predicted a median block for (its selections name their step and variants),
 * so far from its thresholds that a fixed cost of up to its bound (fixedCostBound) out of either
 * side's block, and the prediction off by PROMISE_MARGIN either way, leave its status decided:
 * the analysis then decides it a fortiori (analysis/evidence.js). Where the probes predict no
 * ratio (a time per unit, cells paired by a field, one span for a whole step), it is not.
 */
function decidedDespiteShort(descriptor, finding, spans) {
  const check = finding?.check;
  if (!kindOf(check?.kind)?.twoSided || check.per || check.pairBy || finding.across) return false;
  const rule = ruleOf({ ...check, figure: finding.figure });
  const side = (sel) => {
    const span = spans.find((x) => x.step === sel?.step);
    const variants = descriptor.steps?.find((x) => x.name === sel?.step)?.variants || [];
    if (!span || !variants.length || variants.some((v) => sel[v] === undefined)) return null;
    const name = variants.map((v) => sel[v]).join(' ');
    return Number.isFinite(span.sides?.[name]) ? { ms: span.sides[name], bound: fixedCostBound(span, name, span.minMs).ms } : null;
  };
  const a = side(check.num);
  const b = side(check.den);
  if (!rule || !a || !b) return false;
  const c = Math.max(a.bound, b.bound);
  const lo = a.ms > c ? (a.ms - c) / b.ms : 0;
  const hi = b.ms > c ? a.ms / (b.ms - c) : Infinity;
  return DECIDED.includes(statusOf(rule, lo / PROMISE_MARGIN, hi * PROMISE_MARGIN).status);
}

/**
 * What a plan promises on a kind of server at sizes whose spans (each step's shortest timed
 * block, predicted) are known: the findings it can decide, those its size is too small for, and
 * those whose blocks it predicts too short for a verdict, which are not promised (the short-span
 * line says why and what raises it), unless their predicted ratio is so far past a threshold that
 * the floor could not change it (decidedDespiteShort).
 */
function promisedFindings(descriptor, findings, kind, sizes, spans, { paired = false } = {}) {
  const short = new Set(spans.filter((x) => !x.met).map((x) => x.step));
  const { decidable: sized, tooSmall } = findingsAt(descriptor, findings, kind, sizes, { paired });
  const tooShort = sized.filter((id) => {
    const finding = findings.find((f) => f.id === id);
    return findingSteps(finding, descriptor).some((step) => short.has(step)) && !decidedDespiteShort(descriptor, finding, spans);
  });
  return { decidable: sized.filter((id) => !tooShort.includes(id)), tooSmall, tooShort };
}

function planGroup({ descriptor, findings, group, budgetMs, passes, pinned, shell }) {
  const { article } = descriptor.sizes;
  const predict = (s, sizes) => predictMs(descriptor, s.models, sizes, passes);
  const raised = (sizes) => {
    const out = { ...sizes };
    for (const [step, decl] of Object.entries(descriptor.scaling.spans || {})) {
      if (!decl.raise || decl.raise in pinned) continue;
      const needs = group.map((s) => neededForSpan(s.spans[step], article[decl.raise])).filter((v) => v !== null);
      if (needs.length) out[decl.raise] = Math.max(out[decl.raise], snapUp(descriptor.scaling.vary[decl.raise], article[decl.raise], Math.max(...needs)));
    }
    return out;
  };
  const fitsAll = (sizes) => group.every((s) => predict(s, sizes) <= budgetMs);
  let raise = true;
  let f = largestFraction((x) => fitsAll(raised(sizesAt(descriptor, x, pinned))));
  if (f === null) {
    raise = false;
    f = largestFraction((x) => fitsAll(sizesAt(descriptor, x, pinned)));
  }
  const fits = f !== null;
  const sizes = raise || !fits ? raised(sizesAt(descriptor, f ?? 0, pinned)) : sizesAt(descriptor, f, pinned);
  const chosen = fits ? sizes : sizesAt(descriptor, 0, pinned);
  // the budget a finding's smallest size would need, on the slowest server of the group: that size
  // as it is (a run at that budget may raise it further where it can afford to; the table then
  // says which blocks it promises). Raised to SPAN_MARGIN first, it could jump to the article's
  // largest value: a step's shortest side (embedded-comments' one blog of 100 comments a round)
  // may not grow with the size at all, and it priced TOTAL=1,000 at 1 h 38 min where 93 s fit it.
  const budgetFor = (need) => {
    if (Object.keys(need).some((k) => k in pinned && pinned[k] < need[k])) return null;
    const fNeed = largestFraction((x) => !Object.entries(need).every(([k, v]) => sizesAt(descriptor, x, pinned)[k] >= v));
    const at = sizesAt(descriptor, Math.min(1, (fNeed ?? 0) + 1e-9), pinned);
    return roundUpBudget(Math.max(...group.map((s) => predict(s, at))) / 1000);
  };
  return group.map((s) => {
    // each side's median block, predicted: the step's promise is its shortest side's, at PROMISE_MARGIN
    const spans = Object.entries(s.spans).map(([step, span]) => {
      const sides = sideSpansAt(span, chosen[span.raise]);
      const medians = Object.values(sides);
      const predictedMs = medians.length ? Math.min(...medians) : null;
      return {
        step, variable: span.raise, value: chosen[span.raise], predictedMs, minMs: span.minMs, marginMs: PROMISE_MARGIN * span.minMs,
        sides: Object.fromEntries(Object.entries(sides).map(([side, ms]) => [side, Math.round(ms)])),
        // each side's fitted fixed cost of a block, where the probes told one apart: what a short block may carry
        fixedMs: Object.fromEntries(Object.entries(span.sides).filter(([, l]) => l.fitted).map(([side, l]) => [side, Math.round(l.fixedMs * 10) / 10])),
        met: predictedMs !== null && predictedMs >= PROMISE_MARGIN * span.minMs - 1e-6,
      };
    });
    const { decidable, tooSmall, tooShort } = promisedFindings(descriptor, findings, s.kind, chosen, spans, { paired: Boolean(s.paired) });
    return {
      server: s.server,
      ...(s.paired ? { pairedWith: s.paired } : {}),
      sizes: chosen,
      fraction: fractionOf(descriptor, chosen),
      budgetSeconds: budgetMs / 1000,
      predictedSeconds: predict(s, chosen) / 1000,
      probeSeconds: s.probe.seconds ?? null,
      fits,
      spansRaised: raise,
      model: {
        text: modelText(s.models),
        steps: s.models,
        probes: s.probe.probes.map((p) => ({ sizes: p.sizes, steps: p.steps, ...(p.warmup ? { warmup: true } : {}) })),
        calibrationOpMs: calibratedOpMs(s.calibration, shell),
      },
      spans,
      findings: { decidable, tooSmall: tooSmall.map((t) => ({ ...t, budgetSeconds: budgetFor(t.atLeast) })), tooShort },
    };
  });
}

module.exports = {
  planScenario, sizesAt, fractionOf, nextProbeSizes, fitSteps, predictMs, stepMs, beyondCacheMs, fitSpans, sideSpansAt, neededForSpan, spanMsOf, minSpanMs, modelText,
  probeTargetMs, probeWorkMs, fittedProbes, nonNegativeFit, findingsAt, promisedFindings, decidedDespiteShort, fixedCostBound, findingSteps, MIN_SPAN_MS, SPAN_MARGIN, PROMISE_MARGIN, CALIBRATION_FLOOR_SHARE, MAX_PROBES, DEFAULT_ROUNDS, NOTHING_TO_DECIDE_SHARE,
};
