'use strict';
// --size auto's model of a step: its time as a fixed cost plus its declared terms (operations,
// growth, parts), each priced from the probes (the scenario's steps timed at a few small sizes on
// a server) by a least-squares fit that no cost can come out of below zero, with the
// calibration's per-operation floor under every operation it sends. The planner (planner.js)
// chooses sizes from these predictions; everything here is arithmetic, tested as such.
const { parseExpression } = require('./expression');

/** Paired rounds per comparison where neither --rounds nor the scenario says (run/steps.js passes ROUNDS to the scripts). */
const DEFAULT_ROUNDS = 8;

/** Sizes with the rounds beside them: a scaling expression may price each block (parts) by ROUNDS. */
const withRounds = (sizes, rounds) => ({ ROUNDS: rounds, ...sizes });

/** No operation a script sends costs less than this share of the fastest acknowledged one the calibration timed (w:0 sends cost less than a round trip, not nothing). */
const CALIBRATION_FLOOR_SHARE = 0.25;
const runsOf = (step, passes) => (step.repeat === 'passes' ? passes : 1);

/**
 * The probes a model is fitted to: all but the warm-up probe (warmup true: run/probe.js marks its
 * scenario's first on a server), whose steps are the server's and the shell's first run of the
 * scenario's paths and cost more than later probes ten times its size (the kept main job's: log-
 * inserts' test 1 2.4 s at 10 iterations against 1.1 s at 50, trade-candles' load 2.1 s against
 * 1.0 s at the same size); fitted, they priced test 1 at a third and the load at a twentieth of
 * what they took. Where no other probe was made, the warm-up is all there is.
 */
function fittedProbes(probes) {
  const counted = probes.filter((p) => !p.warmup);
  return counted.length ? counted : probes;
}


/** The terms of a step's model besides its fixed cost: [coefficient, expression] for each it declares. */
function termsOf(decl) {
  return [['a', decl.ops], ['b', decl.grows], ['d', decl.parts]].filter(([, text]) => text);
}

/**
 * How many distinct probe sizes the scenario's steps need for every term they declare, and one
 * more where a growth is fitted to the steps' totals: with no size to spare, the noise in three
 * timings makes a curve of its own, and only the upward ones survive the fit (a cost cannot
 * shrink), which would overstate every growth.
 */
function sizesNeeded(descriptor) {
  // a term of ROUNDS alone (blocks priced by parts) is the same at every probe: no size tells it apart
  const varies = ([, text]) => [...parseExpression(text).names].some((n) => n !== 'ROUNDS');
  return 1 + Math.max(...Object.values(descriptor.scaling.steps).map((d) => termsOf(d).filter(varies).length + (d.grows && !d.figures ? 1 : 0)));
}

/** Least squares of y on the chosen columns; null where they cannot be told apart. */
function leastSquares(points, columns) {
  const n = columns.length;
  const m = Array.from({ length: n }, () => new Array(n + 1).fill(0));
  for (const p of points) {
    const x = columns.map((c) => p[c]);
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < n; j++) m[i][j] += x[i] * x[j];
      m[i][n] += x[i] * p.y;
    }
  }
  for (let i = 0; i < n; i++) {
    let pivot = i;
    for (let r = i + 1; r < n; r++) if (Math.abs(m[r][i]) > Math.abs(m[pivot][i])) pivot = r;
    [m[i], m[pivot]] = [m[pivot], m[i]];
    if (Math.abs(m[i][i]) < 1e-12 * Math.max(1, ...m.map((row) => Math.abs(row[i])))) return null;
    for (let r = 0; r < n; r++) {
      if (r === i) continue;
      const k = m[r][i] / m[i][i];
      for (let j = i; j <= n; j++) m[r][j] -= k * m[i][j];
    }
  }
  return Object.fromEntries(columns.map((c, i) => [c, m[i][n] / m[i][i]]));
}

/**
 * Non-negative least squares over a few columns, by trying every subset of them: the subset
 * whose solution has no negative coefficient and leaves the smallest error (the fewer columns
 * where errors tie). Times cannot shrink as a size grows, so no coefficient may be negative.
 */
function nonNegativeFit(points, columns) {
  let best = { coef: Object.fromEntries(columns.map((c) => [c, 0])), sse: points.reduce((n, p) => n + p.y * p.y, 0), used: 0 };
  for (let mask = 1; mask < 1 << columns.length; mask++) {
    const subset = columns.filter((_, i) => mask & (1 << i));
    if (subset.length > points.length) continue;
    const sol = leastSquares(points, subset);
    if (!sol || Object.values(sol).some((v) => !(v >= 0))) continue;
    const coef = Object.fromEntries(columns.map((c) => [c, sol[c] ?? 0]));
    const sse = points.reduce((n, p) => n + (p.y - columns.reduce((s, c) => s + coef[c] * p[c], 0)) ** 2, 0);
    const tolerance = 1e-9 * Math.max(1, best.sse);
    if (sse < best.sse - tolerance || (Math.abs(sse - best.sse) <= tolerance && subset.length < best.used)) best = { coef, sse, used: subset.length };
  }
  return best.coef;
}

/** The fastest operation the calibration timed on this server, in the shell the run uses. */
function calibratedOpMs(calibration, shell) {
  if (!calibration?.perOp) return null;
  const times = Object.values(calibration.perOp).map((o) => o.shellMs?.[shell] ?? o.driverMs).filter((t) => t > 0);
  return times.length ? Math.min(...times) : null;
}

/**
 * A step's cost that no probe can show, declared with it (beyondCache): the reads of a run whose
 * cache is cut (trade-candles' little-memory run) miss the cache only once the data outgrows it,
 * at sizes the probes stay below, and then each miss costs missMs: ms for one run of the step at
 * these sizes, 0 where the data still fits.
 */
function beyondCacheMs(beyond, sizes, rounds = DEFAULT_ROUNDS) {
  if (!beyond) return 0;
  return beyond.missMs * Math.max(0, parseExpression(beyond.misses).evaluate(withRounds(sizes, rounds)));
}

/**
 * Each step's time as fixedMs + c + a × ops + b × grows + d × parts (its expressions, at the
 * sizes), fitted to the probes with every coefficient ≥ 0 and a at least the calibration's
 * floor per operation, plus what its declared cost beyond the cache adds (beyondCache: the part
 * of the step that runs with a cut cache, predicted on its own). A step that declares no growth
 * is linear (b = 0); one that does needs probes at two sizes at least besides the smallest
 * (three with parts), or is fitted as linear and says so.
 */
function fitSteps(descriptor, { probes: all, fixedMs = {} }, { calibration = null, shell = 'kit', kind = null, rounds = DEFAULT_ROUNDS } = {}) {
  const probes = fittedProbes(all);
  const opMs = calibratedOpMs(calibration, shell);
  // a kind of server that cannot cut its cache (FerretDB: the finding the cut is for cannot be
  // tested there) reads with all its memory twice, and pays nothing beyond the cache
  const serverKind = kind;
  const cannot = descriptor.servers?.[kind]?.cannotTest || {};
  const beyondOf = (decl) => (decl.beyondCache && !(decl.beyondCache.finding in cannot) ? decl.beyondCache : null);
  const floorMs = opMs === null ? 0 : opMs * CALIBRATION_FLOOR_SHARE;
  return Object.fromEntries(descriptor.steps.map((step) => {
    const declared = descriptor.scaling.steps[step.name];
    // a growth only some kinds of server have (growsOn) is not fitted to another kind's noise
    const noGrowth = declared.growsOn && serverKind && !declared.growsOn.includes(serverKind);
    const decl = noGrowth ? (({ grows, figures, ...rest }) => rest)(declared) : declared;
    const terms = termsOf(decl).map(([name, text]) => [name, parseExpression(text)]);
    const fixed = fixedMs[step.name] || 0;
    const points = probes.filter((p) => Number.isFinite(p.steps?.[step.name]?.ms)).map((p) => {
      const point = { c: 1, ...Object.fromEntries(terms.map(([name, e]) => [name, e.evaluate(withRounds(p.sizes, rounds))])) };
      return { ...point, y: p.steps[step.name].ms - fixed - floorMs * point.a - beyondCacheMs(beyondOf(decl), p.sizes, rounds) };
    });
    const distinct = new Set(points.map((p) => terms.map(([name]) => p[name]).join('|'))).size;
    // a term the probes cannot tell apart from the others is left out: parts first, then growth
    const columns = ['c', ...terms.map(([name]) => name)];
    while (columns.length > distinct && columns.length > 2) columns.splice(columns.indexOf(['d', 'b'].find((x) => columns.includes(x)) ?? columns.at(-1)), 1);
    // where the step's own figures show its growth (cells of different sizes within each probe),
    // the growth is fitted there, where it happens, and the rest to the step's totals
    const fromFigures = decl.figures && decl.grows ? figureGrowth(probes, step.name) : null;
    if (fromFigures !== null) {
      points.forEach((p) => { p.y -= fromFigures * p.b; });
      columns.splice(0, columns.length, 'c', ...terms.map(([name]) => name).filter((name) => name !== 'b'));
      while (columns.length > distinct && columns.length > 2) columns.splice(columns.indexOf(columns.includes('d') ? 'd' : columns.at(-1)), 1);
    }
    const coef = { ...nonNegativeFit(points, columns), ...(fromFigures !== null ? { b: fromFigures } : {}) };
    let kind = noGrowth ? `linear (it grows only on ${declared.growsOn.join(', ')})` : 'linear';
    if (fromFigures !== null) kind = fromFigures > 0 ? 'growing (its growth fitted to the timed figures within each probe)' : 'linear (its figures saw no growth)';
    else if (decl.grows && !columns.includes('b')) kind = `linear (growth declared, but ${distinct} distinct probe size(s) cannot tell it apart)`;
    else if (decl.grows) kind = coef.b > 0 ? 'growing' : 'linear (the probes saw no growth)';
    return [step.name, {
      kind, fixedMs: fixed, c: coef.c, a: (coef.a || 0) + floorMs, b: coef.b || 0, d: coef.d || 0, floorMs, rounds,
      ops: decl.ops, grows: decl.grows || null, parts: decl.parts || null, points: points.length,
      ...(beyondOf(decl) ? { beyondCache: { run: decl.beyondCache.run, misses: decl.beyondCache.misses, missMs: decl.beyondCache.missMs } } : {}),
    }];
  }));
}

/**
 * A step's cost per unit of its growth, from its probes' timed figures (each a line's span with
 * its own operations and growth, as scaling.steps.<step>.figures says how to read them): the
 * figures of every probe fitted together, with a cost per figure, per operation and per unit of
 * growth, none negative. Null where the figures are too few or too alike to tell.
 */
function figureGrowth(probes, stepName) {
  const figures = probes.flatMap((p) => p.steps?.[stepName]?.figures || []).map((f) => ({ c: 1, a: f.ops, b: f.grows, y: f.ms }));
  if (new Set(figures.map((f) => `${f.a}|${f.b}`)).size < 3) return null;
  return nonNegativeFit(figures, ['c', 'a', 'b']).b;
}

/** One step's predicted ms for one run of it at these sizes. */
function stepMs(model, sizes) {
  const rounds = model.rounds ?? DEFAULT_ROUNDS;
  const term = (text) => (text ? parseExpression(text).evaluate(withRounds(sizes, rounds)) : 0);
  return model.fixedMs + model.c + model.a * term(model.ops) + model.b * term(model.grows) + (model.d || 0) * term(model.parts) + beyondCacheMs(model.beyondCache, sizes, rounds);
}

/** The scenario's predicted ms at these sizes: every step, as often as it runs. */
function predictMs(descriptor, models, sizes, passes) {
  return descriptor.steps.reduce((n, step) => n + runsOf(step, passes) * stepMs(models[step.name], sizes), 0);
}

/** A readable form of a fitted model, for the size record and the report. */
function modelText(models) {
  const num = (x) => (x >= 100 ? x.toFixed(0) : x >= 1 ? x.toFixed(2) : x.toPrecision(2));
  return Object.entries(models).map(([name, m]) => {
    const parts = [`${num((m.fixedMs + m.c) / 1000)} s`, `${num(m.a)} ms × (${m.ops})`];
    if (m.b > 0) parts.push(`${num(m.b)} ms × (${m.grows})`);
    if (m.d > 0) parts.push(`${num(m.d)} ms × (${m.parts})`);
    if (m.beyondCache) parts.push(`${m.beyondCache.run} beyond the cache: ${num(m.beyondCache.missMs)} ms × (${m.beyondCache.misses}) missed pages`);
    return `${name}: ${m.kind}, ${parts.join(' + ')}`;
  }).join('; ');
}

module.exports = {
  DEFAULT_ROUNDS, CALIBRATION_FLOOR_SHARE, withRounds, runsOf, fittedProbes, termsOf, sizesNeeded, nonNegativeFit, calibratedOpMs, beyondCacheMs,
  fitSteps, figureGrowth, stepMs, predictMs, modelText,
};
