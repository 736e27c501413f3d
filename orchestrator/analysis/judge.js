'use strict';
// One finding on one server's records, made into a verdict once: its status, its ratio with a 95%
// interval and the pairs it rests on, the clock it was decided on, the article's figure, the
// rule's thresholds and its reasons as codes (orchestrator/analysis/reasons.js gives their
// words), and what it rests on (evidence.js: the pairs, what was left out and why, outliers,
// drift, contention). Every view (report.html, summary.md, verdicts.png, verdicts.json, compare)
// reads these fields; none reads a figure back out of a sentence.
//
// A comparison is decided on paired blocks (docs/outputs.md, "Paired rounds"): the block records
// of each side, paired by round, warm-up and incomplete blocks left out; the ratio is the
// geometric mean of the pairs' ratios and the interval Student's t on their logs (estimate.js),
// and it needs a minimum of pairs tied to the rounds the run planned (minPairs). A run that paired
// its blocks is judged on them alone: where one side has none left, the finding is inconclusive
// and says why, never a reading of its totals. A run recorded before pairing has no blocks: its
// repeats (--repeat) are paired by repeat, else it shows its one reading per side, undecided.
const { matches, readsEveryDocument, valueAt } = require('../results/records');
const { fieldInfo, nameInWords, spanMs } = require('../results/fields');
const { pairedEstimate, combinedEstimate, singleEstimate, minPairs, METHOD_ONE } = require('./estimate');
const { networkOfSides, withNetwork } = require('./network');
const { flowControlReason } = require('./replication');
const { flowControlUnknownReason } = require('./replication');
const { membersMayDifferReason, readConcernReason } = require('./members');
const { checkEvidence } = require('./evidence');
const { makeVerdict } = require('./verdict');
const { conditionsOf } = require('./conditions');
const {
  ruleOf, flatRuleOf, statusOf, figureOf, HOLDS, FAILS, WEAKER, INCONCLUSIVE, NEEDS_SIZE, UNTESTABLE, PUBLISHED_ONLY, TESTED,
} = require('./rules');

const pick = (records, where) => records.filter((r) => matches(r, { where }));
/** Whether a record is of a selection (its fromServer aside: which server it came from is said apart). */
const inSelection = (r, sel) => { const { fromServer, ...where } = sel || {}; return matches(r, { where }); };
const describeSelection = (where) => Object.entries(where).filter(([k]) => k !== 'fromServer' && k !== 'step').map(([, v]) => v).join(' ');
/** A side's name in words: its selection's values and its step ("sql test1", "original update"). */
const sideLabel = (sel, recs = []) => {
  const words = describeSelection(sel || {});
  const step = sel?.step || recs[0]?.step;
  return [words, step && !words.split(' ').includes(String(step)) ? step : null].filter(Boolean).join(' ');
};

/**
 * The check a finding is decided by, with the article's figure its rule is held to: one that
 * names its clock (clock.decides) is decided on that field whatever its check says, and the
 * article's clock (clock.article) is what a baseline that recorded nothing on the deciding clock
 * is read on (its own clock stops once every write is applied: it waited for each).
 */
function checkOf(finding) {
  const { clock, check } = finding;
  const withFigure = finding.figure !== undefined ? { ...check, figure: finding.figure } : check;
  return clock ? { ...withFigure, field: clock.decides, baselineField: clock.article } : withFigure;
}

/** The key that pairs blocks: the run (repeat), the pass and the round they were timed in. */
const pairKey = (r) => `${r.repeat ?? 0}|${r.pass || 0}|${r.round}`;
/** Where a block sits: its run and round (for the pairs' drift and the dropped list). */
const blockPlace = (r) => ({ round: r.round ?? null, repeat: r.repeat ?? 0 });

/**
 * The blocks a verdict counts, and those it leaves out with why: a warm-up block (run and not
 * counted, warmup: true) and a block that did not finish its share (complete: false).
 */
function splitBlocks(recs) {
  const counted = [];
  const dropped = [];
  for (const r of recs) {
    if (r.warmup) dropped.push({ record: r, reason: 'warm-up' });
    else if (r.complete === false) dropped.push({ record: r, reason: 'incomplete' });
    else counted.push(r);
  }
  return { counted, dropped };
}

/** The rounds a run planned for blocks: their own count (rounds), else as many as were seen. */
function plannedRounds(blocks) {
  const said = Math.max(0, ...blocks.map((b) => Number(b.rounds) || 0));
  if (said) return said;
  return new Set(blocks.filter((b) => !b.warmup).map(pairKey)).size;
}

/**
 * The records of one side of a check for a server: its own, or where the side names fromServer
 * (the SQL baseline), that server's, as paired with this one (forServers).
 */
function sideRecords(records, sel, server) {
  const { fromServer, ...where } = sel;
  const from = fromServer ? records.filter((r) => r.server === fromServer && (!r.forServers || r.forServers.includes(server))) : records.filter((r) => r.server === server);
  return pick(from, where);
}

/** The field a side is timed on: the check's, or for a baseline that lacks it, its own clock. */
function fieldFor(check, recs, sel) {
  if (!sel.fromServer || !check.baselineField || recs.some((r) => Number.isFinite(r[check.field]))) return check.field;
  return check.baselineField;
}

/**
 * A side's value per sample key: Map(key → sum of field over its records with that key, or with
 * `per` the sum of field over the sum of per: a time per unit of work). keep(r) narrows the
 * records (the cells measured on both sides). Where a side that is no sum has two records under
 * one key (repeats that printed different numbers of lines), the key is left out and named in
 * `duplicated`. placeOf(r) says where a key sits (its round and run), in `places`.
 */
function samplesOf(recs, field, keyOf, { per: perField = null, keep = () => true, sum = true, placeOf = () => ({}) } = {}) {
  // a time per unit only where every record says its units (runs before pairing may not)
  const per = perField && recs.every((r) => !Number.isFinite(r[field]) || Number.isFinite(r[perField])) ? perField : null;
  const sums = new Map();
  const duplicated = new Set();
  const places = new Map();
  for (const r of recs) {
    if (!Number.isFinite(r[field]) || !keep(r)) continue;
    const k = keyOf(r);
    const s = sums.get(k) || { v: 0, u: 0, n: 0, ms: 0 };
    s.v += r[field];
    // the key's span in ms (a time per unit is no span): a fixed cost per block is weighed on it
    s.ms += spanMs(field, r[field]) ?? NaN;
    s.u += per ? (Number(r[per]) || 0) : 1;
    s.n += 1;
    if (!sum && s.n > 1) duplicated.add(k);
    sums.set(k, s);
    if (!places.has(k)) places.set(k, placeOf(r));
  }
  for (const k of duplicated) sums.delete(k);
  const values = new Map([...sums].map(([k, s]) => [k, per ? (s.u > 0 ? s.v / s.u : NaN) : s.v]));
  values.duplicated = duplicated;
  values.places = places;
  values.spans = new Map([...sums].map(([k, s]) => [k, s.ms]));
  return values;
}

/** The counted repeats of a run recorded before pairing (--repeat K, warm-up left out). */
const repeatKey = (r) => `${r.repeat}|${r.pass || 0}`;
const repeatsIn = (recs) => new Set(recs.filter((r) => Number.isInteger(r.repeat) && r.repeat >= 1).map((r) => r.repeat)).size;
const pairKeyOrRepeat = (r) => (Number.isInteger(r.round) ? pairKey(r) : Number.isInteger(r.repeat) ? repeatKey(r) : 'single');
const perUnit = (total, check) => (check.per ? (total.units > 0 ? total.value / total.units : NaN) : total.value);

/**
 * The paired samples of a comparison of two selections, from the best the run has: its blocks
 * (paired by round) where it paired either side's blocks, else its samples (sampleBy), else its
 * repeats (paired by repeat), else one reading per side. Returns { source: 'blocks' | 'samples'
 * | 'repeats' | 'single', pairs: [{ key, num, den, round, repeat }], planned (the rounds, samples
 * or runs the run meant to pair), dropped ([{ side, round, repeat, reason }]: warm-up, incomplete,
 * a partner missing), missing (rounds with a block of one side only), noPairs (where a side had
 * no block left: { side, dropped }), num, den (the totals of the aggregated records, for the
 * views), groups (each side's records, for the floors), records (those it rests on) }.
 */
function comparison(check, ctx, numSel, denSel, { field = check.field } = {}) {
  const { server } = ctx;
  const fieldOf = (recs, sel) => fieldFor({ ...check, field }, recs, sel);
  const cellKey = check.pairBy ? (r) => JSON.stringify(check.pairBy.map((f) => r[f])) : null;
  // with pairBy, a sum compares the same cells: a cell measured on one side only drops out of both
  const bothSides = (a, b) => {
    if (!cellKey) return () => true;
    const cells = (recs, f) => new Set(recs.filter((r) => Number.isFinite(r[f])).map((r) => `${pairKeyOrRepeat(r)}#${cellKey(r)}`));
    const ca = cells(a.recs, a.field);
    const cb = cells(b.recs, b.field);
    return (r) => { const k = `${pairKeyOrRepeat(r)}#${cellKey(r)}`; return ca.has(k) && cb.has(k); };
  };
  const side = (records, sel) => { const recs = sideRecords(records, sel, server); return { recs, field: fieldOf(recs, sel), label: sideLabel(sel, recs) }; };

  const totals = (() => {
    const a = side(ctx.records, numSel);
    const b = side(ctx.records, denSel);
    const keep = bothSides(a, b);
    const total = (s) => {
      const found = s.recs.filter((r) => Number.isFinite(r[s.field]) && keep(r));
      if (!found.length) return null;
      const used = check.sum ? found : found.slice(0, 1);
      const value = used.reduce((n, r) => n + r[s.field], 0);
      const units = check.per ? used.reduce((n, r) => n + (Number(r[check.per]) || 0), 0) : null;
      return { value, units, field: s.field, records: used };
    };
    return { num: total(a), den: total(b) };
  })();

  const paired = (a, b, keyOf, source, placeOf) => {
    const keep = bothSides(a, b);
    // blocks of one side under one key are its parts (cells, shells) and add up; a repeat's line is one reading
    const sum = source === 'blocks' || source === 'samples' || Boolean(check.sum);
    const na = samplesOf(a.recs, a.field, keyOf, { per: check.per, keep, sum, placeOf });
    const nb = samplesOf(b.recs, b.field, keyOf, { per: check.per, keep, sum, placeOf });
    const duplicated = new Set([...na.duplicated, ...nb.duplicated]);
    const keys = [...na.keys()].filter((k) => nb.has(k));
    // a round with a block of one side only: its partner is missing, and the round is left out
    const alone = [...[...na.keys()].filter((k) => !nb.has(k)).map((k) => ({ side: b.label, ...na.places.get(k) })),
      ...[...nb.keys()].filter((k) => !na.has(k)).map((k) => ({ side: a.label, ...nb.places.get(k) }))];
    return {
      source, pairs: keys.map((key) => ({ key, num: na.get(key), den: nb.get(key), numMs: na.spans.get(key), denMs: nb.spans.get(key), ...na.places.get(key) })),
      missing: alone.length, duplicated: duplicated.size, dropped: alone.map((d) => ({ ...d, reason: 'partner-missing' })),
      records: [...a.recs, ...b.recs], groups: [{ label: a.label, records: a.recs.filter(keep) }, { label: b.label, records: b.recs.filter(keep) }],
    };
  };

  // a run that paired its blocks is judged on its blocks alone
  const blockA = side(ctx.blocks, numSel);
  const blockB = side(ctx.blocks, denSel);
  if (blockA.recs.length || blockB.recs.length) {
    const planned = plannedRounds([...blockA.recs, ...blockB.recs]);
    const split = [blockA, blockB].map((s) => ({ s, ...splitBlocks(s.recs) }));
    const dropped = split.flatMap(({ s, dropped: d }) => d.map(({ record, reason }) => ({ side: s.label, ...blockPlace(record), reason })));
    const [a, b] = split.map(({ s, counted }) => ({ ...s, recs: counted }));
    const empty = [a, b].find((s) => !s.recs.some((r) => Number.isFinite(r[s.field])));
    if (empty) {
      const left = dropped.filter((d) => d.side === empty.label);
      const noPairs = { side: empty.label, dropped: Object.fromEntries(['warm-up', 'incomplete'].map((k) => [k, left.filter((d) => d.reason === k).length]).filter(([, n]) => n)) };
      return { source: 'blocks', pairs: [], planned, missing: 0, duplicated: 0, dropped, noPairs, records: [...a.recs, ...b.recs], groups: [], ...totals };
    }
    const p = paired(a, b, pairKey, 'blocks', blockPlace);
    return { ...p, planned, dropped: [...dropped, ...p.dropped], ...totals };
  }
  // a script that interleaves its variants itself (power-of-2-sizes' passes, operation by
  // operation) names the field whose values are its samples: sampleBy
  if (check.sampleBy) {
    const a = side(ctx.records, numSel);
    const b = side(ctx.records, denSel);
    const bySample = paired(a, b, (r) => `${r.repeat ?? 0}|${r[check.sampleBy]}`, 'samples', (r) => ({ round: r[check.sampleBy] ?? null, repeat: r.repeat ?? 0 }));
    if (bySample.pairs.length >= 2) return { ...bySample, planned: bySample.pairs.length + bySample.missing, ...totals };
  }
  const repeats = [numSel, denSel].map((sel) => repeatsIn(sideRecords(ctx.raw, sel, server)));
  if (repeats.every((k) => k >= 2)) {
    const raw = ctx.raw.filter((r) => Number.isInteger(r.repeat) && r.repeat >= 1);
    const a = side(raw, numSel);
    const b = side(raw, denSel);
    const fromRepeats = paired(a, b, repeatKey, 'repeats', (r) => ({ round: null, repeat: r.repeat }));
    if (fromRepeats.pairs.length || fromRepeats.duplicated) return { ...fromRepeats, planned: Math.max(...repeats), ...totals };
  }
  const single = totals.num && totals.den ? [{ key: 'single', num: perUnit(totals.num, check), den: perUnit(totals.den, check), round: null, repeat: 0 }] : [];
  const groups = [[numSel, totals.num], [denSel, totals.den]].filter(([, t]) => t).map(([sel, t]) => ({ label: sideLabel(sel, t.records), records: t.records }));
  return { source: 'single', pairs: single, planned: 1, missing: 0, dropped: [], records: [...(totals.num?.records || []), ...(totals.den?.records || [])], groups, ...totals };
}

/**
 * An estimate from pairs ([{ ratio, round, repeat }]): where the pairs come from several runs
 * (--repeat) of a paired source, one estimate per run and the runs combined (estimate.js), a run
 * with fewer pairs than a verdict needs left out and said; else the pairs' own estimate. It
 * carries the minimum it is held to (need, from planned), its source, the pairs it rests on
 * (pairList) and what it left out (dropped).
 */
function estimateFromPairs(pairs, { planned, source }) {
  const need = minPairs(planned);
  const usable = pairs.filter((p) => Number.isFinite(p.ratio) && p.ratio > 0);
  const dropped = pairs.filter((p) => !usable.includes(p)).map((p) => ({ round: p.round ?? null, repeat: p.repeat ?? 0, reason: 'unusable' }));
  const byRun = new Map();
  for (const p of usable) byRun.set(p.repeat ?? 0, [...(byRun.get(p.repeat ?? 0) || []), p]);
  let used = usable;
  let est;
  if (source !== 'repeats' && source !== 'single' && byRun.size >= 2) {
    const runs = [...byRun].map(([run, ps]) => ({ run, pairs: ps, estimate: pairedEstimate(ps.map((p) => p.ratio)) }));
    const enough = runs.filter((r) => r.estimate.n >= need);
    for (const r of runs.filter((x) => !enough.includes(x))) dropped.push({ repeat: r.run, round: null, reason: 'run-too-few-pairs', n: r.estimate.n });
    // never pooled: too few runs with enough pairs leave the largest one standing alone
    const kept = enough.length ? enough : [runs.sort((x, y) => y.estimate.n - x.estimate.n)[0]];
    used = kept.flatMap((r) => r.pairs);
    est = kept.length >= 2 ? combinedEstimate(kept) : kept[0].estimate;
  } else {
    est = source === 'single' ? singleEstimate(usable[0]?.num ?? NaN, usable[0]?.den ?? NaN) : pairedEstimate(usable.map((p) => p.ratio));
  }
  return { ...est, need, planned, source, pairList: used.map((p) => ({ ratio: p.ratio, round: p.round ?? null, repeat: p.repeat ?? 0, numMs: p.numMs ?? null, denMs: p.denMs ?? null })), dropped };
}

/** A comparison's estimate: paired where it has pairs, a single ratio where it has one reading. */
function estimateOf(cmp) {
  return estimateFromPairs(cmp.pairs.map((p) => ({ ...p, ratio: p.num / p.den })), { planned: cmp.planned, source: cmp.source });
}

/** The estimate again without its pair i (an outlier), for whether that pair decides it. */
const estimateWithout = (est) => (i) => estimateFromPairs(est.pairList.filter((_, j) => j !== i), { planned: est.planned, source: est.source });
/** The estimate again from pairs whose ratios changed (a fixed cost taken out of each block), as est was made. */
const estimateAgain = (est) => (pairList) => estimateFromPairs(pairList, { planned: est.planned, source: est.source });
/**
 * A finding's precondition (requires): a field some record must carry with a value (equals), or
 * reach (atLeast), else the finding cannot be tested here. A threshold holds for every server among
 * the records and every record of each. Returns reasons (none where it is met).
 */
function unmet(requires, all) {
  if (!requires) return [];
  if (Array.isArray(requires)) return requires.flatMap((r) => unmet(r, all));
  const records = requires.where ? pick(all, requires.where) : all;
  const carrying = records.filter((r) => valueAt(r, requires.field) !== undefined && valueAt(r, requires.field) !== null);
  const values = carrying.map((r) => valueAt(r, requires.field));
  const label = requires.label || nameInWords(requires.field);
  // a requirement a larger size meets (sizeBound: data that must outgrow a cache) leaves the finding waiting for that size
  const reason = (text) => [{ code: 'requirement-unmet', requirement: requires.code || requires.field, text, ...(requires.sizeBound ? { sizeBound: true } : {}) }];
  if (!values.length) return reason(`${requires.unrecorded || requires.else} (no ${label} recorded)`);
  if (requires.atLeast !== undefined) {
    const servers = [...new Set(carrying.map((r) => r.server))];
    const short = servers.map((server) => ({ server, least: Math.min(...carrying.filter((r) => r.server === server).map((r) => valueAt(r, requires.field))) }))
      .filter((s) => !(s.least >= requires.atLeast));
    if (!short.length) return [];
    const shown = short.map((s) => `${s.least}${servers.length > 1 ? ` on ${s.server}` : ''}`).join(', ');
    return reason(`${requires.else} (${label} ${shown}, ${requires.of || 'the article\'s'} ${requires.atLeast})`);
  }
  if (values.some((v) => v === requires.equals)) return [];
  const why = requires.because ? [...new Set(carrying.map((r) => valueAt(r, requires.because)).filter(Boolean))] : [];
  return reason(`${requires.else} (${label}: ${[...new Set(values)].join(', ')}${why.length ? `: ${why.join('; ')}` : ''})`);
}

/**
 * The size a finding needs (the scenario's scaling.findings) against the size the server ran:
 * reasons, with what would reach it where the run's size record says (the --budget the planner
 * priced it at, or the fixed size the run was given).
 */
function sizeTooSmall(finding, descriptor, sizes, sizeRecord = null) {
  const need = descriptor?.scaling?.findings?.[finding.id];
  if (!need?.atLeast || !sizes) return [];
  const short = Object.entries(need.atLeast).filter(([k, v]) => Number.isFinite(sizes[k]) && sizes[k] < v).map(([name, v]) => ({ name, value: sizes[name], need: v }));
  if (!short.length) return [];
  const planned = sizeRecord?.findings?.tooSmall?.find((t) => t.id === finding.id);
  const reach = sizeRecord?.size && sizeRecord.size !== 'auto' ? { size: sizeRecord.size }
    : planned ? { budgetSeconds: Number.isFinite(planned.budgetSeconds) ? planned.budgetSeconds : null } : {};
  return [{ code: 'size-too-small', short, why: need.why, ...reach }];
}

/** Why a side's reference server (a scenario's baseline) measured nothing, as the run recorded it. */
function baselineMissing(check, all) {
  return [check.num, check.den].filter((s) => s?.fromServer).map((s) => all.find((r) => r.server === s.fromServer && r.unavailable))
    .filter(Boolean).map((r) => ({ code: 'baseline-unavailable', server: r.server, why: r.unavailable }));
}

/** Whether a finding's untestable reasons are all lifted by a larger size (a larger --budget). */
const sizeBound = (reasons) => reasons.length > 0 && reasons.every((r) => r.code === 'size-too-small' || (r.code === 'requirement-unmet' && r.sizeBound));

const same = (a, b) => Math.abs(a / b - 1) < 1e-9;

/** Why a rule gave the status it gave: the edge straddled, the margin, a weaker effect, a band overshot. */
function ruleReasons(rule, { status, straddles, band }) {
  if (straddles) return [{ code: 'straddles', ...straddles }];
  if (!band) return [];
  if (status === INCONCLUSIVE) return [{ code: 'inside-margin', from: band.from, to: band.to }];
  if (status === WEAKER) return [{ code: 'weaker', from: band.from, to: band.to, figure: rule.figure }];
  if (status === FAILS && rule.upTo && (same(band.from, rule.upTo) || same(band.to, rule.upTo))) return [{ code: 'above-band', at: rule.upTo, figure: rule.figure }];
  return [];
}

/**
 * The status of an estimate under a rule, with why: its interval decides, and only where it rests
 * on the pairs a verdict needs (est.need, tied to the rounds the run planned); fewer, or one
 * reading per side (a run recorded before pairing), leave a timing inconclusive. A size is no
 * timing: its one reading is the figure, and decides.
 */
function decide(rule, est, { timed = true } = {}) {
  const lo = est.lo ?? est.ratio;
  const hi = est.hi ?? est.ratio;
  const judged = statusOf(rule, lo, hi);
  if (timed && est.n < est.need) {
    const short = est.source === 'single' && est.method === METHOD_ONE ? { code: 'one-reading' } : { code: 'too-few-pairs', n: est.n, need: est.need, planned: est.planned };
    return { status: INCONCLUSIVE, reasons: [short] };
  }
  return { status: judged.status, reasons: ruleReasons(rule, judged) };
}

/** The estimate's own fields, as a verdict and its parts carry them. */
const figures = (est) => ({ ratio: est.ratio, lo: est.lo, hi: est.hi, n: est.n, se: est.se ?? null, df: est.df ?? null, method: est.method, ...(est.runs ? { runs: est.runs } : {}) });

/** A ratio of two selections. */
function ratioCheck(check, ctx) {
  const cmp = comparison(check, ctx, check.num, check.den);
  return { est: estimateOf(cmp), cmp };
}

/** Two values about equal, at each `at` x (or once): the farthest from 1 on a log scale decides. */
function nearCheck(check, ctx, rule) {
  const timed = fieldInfo(check.field).clock !== null;
  const points = (check.at || [undefined]).map((x) => {
    const at = (sel) => (x === undefined ? sel : { ...sel, [check.x]: x });
    const cmp = comparison(check, ctx, at(check.num), at(check.den));
    const est = estimateOf(cmp);
    const decided = est.n ? decide(rule, est, { timed }) : { status: UNTESTABLE, reasons: [] };
    // each point's sides are named at their x, so a short side says where it was short
    const groups = (cmp.groups || []).map((g) => ({ ...g, label: x === undefined ? g.label : `${g.label} at ${x}` }));
    return { x, cmp: { ...cmp, groups }, est, ...decided };
  });
  const measured = points.filter((p) => p.est.n);
  if (measured.length < points.length) {
    const missing = points.find((p) => !p.est.n);
    return { est: missing.est, cmp: missing.cmp, points, missingAt: missing.x };
  }
  const far = (p) => Math.abs(Math.log(p.est.ratio));
  // a point that fails decides; else one that cannot be told; else a weaker one; else the farthest from 1
  const deciding = points.find((p) => p.status === FAILS) || points.filter((p) => p.status === INCONCLUSIVE).sort((a, b) => far(b) - far(a))[0]
    || points.find((p) => p.status === WEAKER) || [...points].sort((a, b) => far(b) - far(a))[0];
  const status = points.some((p) => p.status === FAILS) ? FAILS : points.some((p) => p.status === INCONCLUSIVE) ? INCONCLUSIVE
    : points.some((p) => p.status === WEAKER) ? WEAKER : HOLDS;
  return { est: deciding.est, cmp: deciding.cmp, points, deciding, status, reasons: deciding.reasons, groups: points.flatMap((p) => p.cmp.groups) };
}

/**
 * A growth: one series' time per unit at its largest x against its fastest x, and where the
 * finding says so, a second series staying flat (the same two x, either way). Each as a
 * ratio of paired samples: the cells of one round are timed in the same round.
 */
function growthCheck(check, ctx) {
  const series = (where) => {
    const keyed = (recs, keyOf, placeOf) => {
      const byX = new Map();
      for (const r of recs) {
        if (!Number.isFinite(r[check.x]) || !Number.isFinite(r[check.field])) continue;
        if (!byX.has(r[check.x])) byX.set(r[check.x], []);
        byX.get(r[check.x]).push(r);
      }
      return new Map([...byX].map(([x, rs]) => [x, samplesOf(rs, check.field, keyOf, { per: check.per, placeOf })]));
    };
    const label = describeSelection(where);
    const blocks = sideRecords(ctx.blocks, where, ctx.server);
    if (blocks.length) {
      const { counted, dropped } = splitBlocks(blocks);
      return { source: 'blocks', byX: keyed(counted, pairKey, blockPlace), records: counted, planned: plannedRounds(blocks), label, dropped: dropped.map(({ record, reason }) => ({ side: `${label} at ${record[check.x]}`, ...blockPlace(record), reason, x: record[check.x] })) };
    }
    const raw = sideRecords(ctx.raw, where, ctx.server);
    if (repeatsIn(raw) >= 2) return { source: 'repeats', byX: keyed(raw.filter((r) => r.repeat >= 1), repeatKey, (r) => ({ round: null, repeat: r.repeat })), records: raw, planned: repeatsIn(raw), label, dropped: [] };
    const agg = sideRecords(ctx.records, where, ctx.server);
    return { source: 'single', byX: keyed(agg, () => 'single', () => ({ round: null, repeat: 0 })), records: agg, planned: 1, label, dropped: [] };
  };
  // the typical value of an x: the geometric mean of its samples
  const typical = (samples) => { const v = [...samples.values()].filter((x) => x > 0); return v.length ? Math.exp(v.reduce((a, x) => a + Math.log(x), 0) / v.length) : NaN; };
  const between = (s, hiX, loX) => {
    const a = s.byX.get(hiX);
    const b = s.byX.get(loX);
    const keys = [...a.keys()].filter((k) => b.has(k));
    const alone = [...a.keys(), ...b.keys()].filter((k) => !(a.has(k) && b.has(k)));
    const est = estimateFromPairs(keys.map((k) => ({ num: a.get(k), den: b.get(k), ratio: a.get(k) / b.get(k), numMs: a.spans.get(k), denMs: b.spans.get(k), ...a.places.get(k) })), { planned: s.planned, source: s.source });
    const atTwo = (d) => d.x === hiX || d.x === loX;
    const dropped = [...s.dropped.filter(atTwo).map(({ x, ...d }) => d), ...alone.map((k) => ({ side: s.label, ...(a.places.get(k) || b.places.get(k)), reason: 'partner-missing' })), ...est.dropped];
    return { est, dropped, groups: [hiX, loX].map((x) => ({ label: `${s.label} at ${x}`, records: s.records.filter((r) => r[check.x] === x) })) };
  };
  const grow = series(check.grows);
  const xs = [...grow.byX.keys()].sort((p, q) => p - q);
  if (xs.length < 2) return { est: singleEstimate(NaN, NaN), points: xs.length, records: grow.records, groups: [], dropped: [] };
  const maxX = xs.at(-1);
  const fastest = xs.reduce((m, x) => (typical(grow.byX.get(x)) < typical(grow.byX.get(m)) ? x : m));
  const g = between(grow, maxX, fastest);
  // the other series at the same two points: where the one slowed, did the other stay level?
  // (its own slowest against its fastest would pick its noisiest pair, biased above 1)
  let flat = null;
  if (check.flat) {
    const f = series(check.flat.where);
    if (f.byX.has(maxX) && f.byX.has(fastest) && maxX !== fastest) {
      const fb = between(f, maxX, fastest);
      flat = { est: fb.est, at: maxX, ref: fastest, records: f.records, groups: fb.groups };
    } else {
      flat = { est: null, records: f.records, groups: [] };
    }
  }
  return {
    est: g.est, at: maxX, ref: fastest, flat, records: [...grow.records, ...(flat?.records || [])], source: grow.source,
    groups: [...g.groups, ...(flat?.groups || [])], dropped: g.dropped,
  };
}

/**
 * a and b over x (sizes per pass): a starts above b by more than the margin and ends below it by
 * more than the margin. Sizes are no timing: one reading each, read as recorded.
 */
function crossingCheck(check, records, server) {
  const series = (name) => pick(records.filter((r) => r.server === server), { ...check.where, [check.series]: name })
    .filter((r) => Number.isFinite(r[check.y]) && Number.isFinite(r[check.x]))
    .sort((p, q) => p[check.x] - q[check.x]);
  const a = series(check.a);
  const b = series(check.b);
  const xs = a.map((r) => r[check.x]).filter((x) => b.some((r) => r[check.x] === x));
  if (xs.length < (check.minPoints || 2)) return { status: UNTESTABLE, reasons: [{ code: 'too-few-points', points: xs.length }], crossing: null };
  const gap = (x) => {
    const av = a.find((r) => r[check.x] === x)[check.y];
    const bv = b.find((r) => r[check.x] === x)[check.y];
    return (av - bv) / bv;
  };
  const first = gap(xs[0]);
  const last = gap(xs.at(-1));
  // a crossing is a's fall from above b by more than the margin: two like series wobbling around
  // each other (sizes within 0.1%) cross at every other point, which says nothing
  const crossAt = xs.find((x, i) => i > 0 && gap(xs[i - 1]) > 0 && gap(x) <= 0 && xs.slice(0, i).some((p) => gap(p) > check.margin));
  const crossing = { x: check.x, a: check.a, b: check.b, fromX: xs[0], toX: xs.at(-1), first, last, crossAt: crossAt ?? null };
  if (Math.abs(first) <= check.margin || Math.abs(last) <= check.margin) {
    return { status: INCONCLUSIVE, reasons: [{ code: 'inside-margin', from: -check.margin, to: check.margin }], crossing };
  }
  return { status: first > 0 && last < 0 ? HOLDS : FAILS, reasons: [], crossing };
}

/** What the server did that a reader needs beside the figure (its write concern, its plan): [{ label, values }]. */
function contextOf(finding, records) {
  return (finding.context || []).map((c) => ({
    label: c.label,
    values: [...new Set(pick(records, c.where || {}).map((r) => valueAt(r, c.field)).filter((v) => v !== undefined && v !== null)
      .map((v) => (typeof v === 'object' ? [v.outcome, v.reason].filter(Boolean).join(': ') : String(v))))],
  })).filter((c) => c.values.length);
}

/**
 * How the server found its documents where a recorded plan says it read them all (a table or
 * collection scan) rather than through an index, as the articles' servers did: from the plan
 * fields, scan flags and plan texts of the records the finding is decided on. null otherwise.
 */
function mechanismOf(finding, records) {
  const { check } = finding;
  const sels = [check.num, check.den, check.grows, check.flat?.where, check.where, ...(finding.context || []).map((c) => c.where || {})]
    .filter(Boolean).map(({ fromServer, ...where }) => ({ ...check.where, ...where }));
  const decidedOn = records.filter((r) => sels.some((where) => matches(r, { where })));
  return decidedOn.some(readsEveryDocument) ? 'by a table scan' : null;
}

/**
 * The network's reason where what this server's operations waited for on the network could have
 * made the figure: each of the check's own selections (a baseline's are not this server's), timed
 * on the deciding clock, weighed apart (analysis/network.js). Null otherwise.
 */
function networkOf(check, ctx, own) {
  // a server the kit started listens on this machine's loopback: there a ping's time is the
  // server's own answer, not a distance, and no network decides anything
  if (!ctx.serverRecord || ctx.serverRecord.startedByKit || !check.field) return null;
  const sels = [check.num, check.den, check.grows, check.flat?.where].filter((sel) => sel && !sel.fromServer);
  const sides = sels.map((sel) => ({ label: describeSelection(sel) || null, records: own.filter((r) => inSelection(r, sel)) }));
  return networkOfSides(ctx.serverRecord, sides, { timeField: check.field, opsField: check.opsField || 'ops' });
}

/** A side's total as the views show it: { label, value, unit, field }. */
function sideFigure(total, sel) {
  if (!total) return null;
  return { label: describeSelection(sel), value: total.value, field: total.field, unit: fieldInfo(total.field).unit };
}

/**
 * A verdict's status where it was measured but cannot be tested: needs a larger size where every
 * reason is one a larger size lifts, else cannot be tested here.
 */
const untestedStatus = (reasons) => (sizeBound(reasons) ? NEEDS_SIZE : UNTESTABLE);

/** What a verdict rests on as the verdict carries it: the checked evidence and what was left out. */
const restsOn = (evidence, dropped) => ({ ...evidence, dropped: dropped.map(({ side, round, repeat, reason, n }) => ({ side: side ?? null, round: round ?? null, repeat: repeat ?? 0, reason, ...(n !== undefined ? { n } : {}) })) });

/**
 * The verdict of one finding on one server. ctx: { scenario, server, records (the scenario's
 * aggregated measurement records, every server's: a baseline's too), blocks (its block records,
 * warm-up and incomplete ones among them: the comparison leaves them out, said), raw (its
 * measurement records before aggregation, for repeats), descriptor, sizes, sizeRecord (the run's
 * size record of the scenario on the server: what a larger budget would reach) }.
 */
function judge(finding, ctx) {
  const judged = judgement(finding, ctx);
  // whether the two sides did the same work (acknowledged, durable, indexed, warm): said, not judged
  return makeVerdict({ ...judged, ...articleFigures(finding), ...articleAtRunSize(finding, judged), conditions: conditionsOf(finding.check, ctx, { across: judged.servers }) });
}

/**
 * The article's own figure for a finding, from its published.json (figure: a field, never read
 * out of the article's words). The kit's own questions cite another comparison's figure (TokuMX):
 * said, not drawn.
 */
function articleFigures(finding) {
  return { articleRatio: finding.source === 'kit' || !Number.isFinite(finding.figure) ? null : finding.figure };
}

/**
 * Where a growth was measured up to a smaller x than the article's (1,000 comments per blog where
 * the article went to 10,000), the article's own growth at the largest of its points the run
 * reached (its check's figureAt, the figure the rule held it to): { articleAtRunSize: { x, ratio
 * } }, else nothing.
 */
function articleAtRunSize(finding, judged) {
  const points = finding.check?.figureAt;
  if (judged.status === PUBLISHED_ONLY || finding.check.kind !== 'growth' || finding.source === 'kit' || !Number.isFinite(judged.at) || !points?.length) return {};
  if (judged.at >= Math.max(...points.map((p) => p.x))) return {};
  const reached = points.filter((p) => p.x <= judged.at).sort((a, b) => a.x - b.x).at(-1);
  return reached ? { articleAtRunSize: { x: reached.x, ratio: figureOf(finding.check, judged.at) } } : {};
}

/** The fields of a verdict, before it is made (judge). */
function judgement(finding, ctx) {
  const base = { finding: finding.id, scenario: ctx.scenario, server: ctx.server, kit: finding.source === 'kit' };
  const { check } = finding;
  if (check.kind === 'publishedOnly') {
    return { ...base, status: PUBLISHED_ONLY, ratio: null, lo: null, hi: null, n: 0, method: null, field: null, clock: null, thresholds: null, reasons: [{ code: 'published-only', text: check.reason }] };
  }
  if (finding.across) return judgeAcross(finding, ctx, base);
  const own = ctx.records.filter((r) => r.server === ctx.server);
  const untestable = [...unmet(finding.requires, own), ...sizeTooSmall(finding, ctx.descriptor, ctx.sizes, ctx.sizeRecord)];
  const c = checkOf(finding);
  let rule = ruleOf(c);
  const timed = Boolean(c.field && fieldInfo(c.field).clock);
  const clockFields = { field: c.field ?? null, clock: c.field ? fieldInfo(c.field).clock : null, articleClock: finding.clock?.article ? fieldInfo(finding.clock.article).clock : null };
  const extras = { context: contextOf(finding, own), mechanism: null, shared: false };

  if (check.kind === 'crossing') {
    const out = crossingCheck(c, ctx.records, ctx.server);
    const status = untestable.length ? untestedStatus(untestable) : out.status;
    return { ...base, ...clockFields, status, ratio: null, lo: null, hi: null, n: out.crossing ? 1 : 0, method: null, thresholds: null, crossing: out.crossing, reasons: [...untestable, ...out.reasons], ...extras };
  }

  let decided;
  let parts = {};
  let groups = [];
  let dropped = [];
  if (check.kind === 'ratio') {
    const r = ratioCheck(c, ctx);
    const missing = baselineMissing(c, ctx.records);
    if (!r.est.n) {
      const zero = [r.cmp.num, r.cmp.den].some((t) => t && t.value === 0) ? [{ code: 'zero-denominator', side: describeSelection(c.den) }] : [];
      // both sides measured, but one had no block left to pair: said, and not decided
      const noPairs = r.cmp.noPairs && r.cmp.num && r.cmp.den ? [{ code: 'no-pairs', ...r.cmp.noPairs }] : [];
      decided = missing.length ? { status: UNTESTABLE, reasons: missing } : zero.length ? { status: UNTESTABLE, reasons: zero }
        : noPairs.length ? { status: INCONCLUSIVE, reasons: noPairs } : { status: UNTESTABLE, reasons: [{ code: 'not-measured' }] };
    } else {
      decided = decide(rule, r.est, { timed });
    }
    parts = { est: r.est, sides: { num: sideFigure(r.cmp.num, c.num), den: sideFigure(r.cmp.den, c.den) }, missing: r.cmp.missing, duplicated: r.cmp.duplicated, source: r.cmp.source };
    groups = r.cmp.groups;
    dropped = [...r.cmp.dropped, ...r.est.dropped];
  } else if (check.kind === 'near') {
    const r = nearCheck(c, ctx, rule);
    if (r.missingAt !== undefined || !r.est.n) {
      decided = { status: UNTESTABLE, reasons: [{ code: 'not-measured', where: r.missingAt !== undefined ? `at ${r.missingAt} ${fieldInfo(c.x).words}` : '' }] };
    } else {
      decided = { status: r.status, reasons: r.reasons };
    }
    parts = {
      est: r.est, at: r.deciding?.x ?? null, source: r.cmp.source, missing: r.cmp.missing,
      sides: { num: sideFigure(r.cmp.num, c.num), den: sideFigure(r.cmp.den, c.den) },
      points: r.points.filter((p) => p.x !== undefined).map((p) => ({ x: p.x, ...figures(p.est), status: p.status })),
    };
    groups = r.groups || [];
    dropped = [...(r.cmp.dropped || []), ...(r.est.dropped || [])];
  } else if (check.kind === 'growth') {
    const r = growthCheck(c, ctx);
    rule = ruleOf(c, { at: r.at });
    if (!r.est.n) {
      decided = { status: UNTESTABLE, reasons: [{ code: 'too-few-points', points: r.points ?? 0 }] };
    } else {
      const growth = decide(rule, r.est, { timed });
      const flatRule = flatRuleOf(c);
      let flat = null;
      let flatReasons = [];
      if (r.flat && r.flat.est) {
        const fd = decide(flatRule, r.flat.est, { timed });
        flat = { ...figures(r.flat.est), status: fd.status, holdsAt: flatRule.holdsAt, failsAt: flatRule.failsAt, at: r.flat.at, ref: r.flat.ref };
        if (fd.status === FAILS) flatReasons = [{ code: 'not-flat', ratio: r.flat.est.ratio, lo: r.flat.est.lo, hi: r.flat.est.hi, at: flatRule.failsAt }];
        // too few pairs is said once, by the growth's own reason: its pairs are the same rounds'
        else if (fd.status === INCONCLUSIVE && !fd.reasons.some((x) => ['too-few-pairs', 'one-reading'].includes(x.code))) flatReasons = [{ code: 'flat-straddles', ratio: r.flat.est.ratio, lo: r.flat.est.lo ?? r.flat.est.ratio, hi: r.flat.est.hi ?? r.flat.est.ratio, at: flatRule.holdsAt }];
        else if (fd.status === INCONCLUSIVE && growth.status !== INCONCLUSIVE) flatReasons = fd.reasons;
      } else if (r.flat) {
        flatReasons = [{ code: 'flat-unmeasured' }];
      }
      // the claim is both: one series slows and the other stays flat; either part failing fails
      // it, and a weaker slowdown beside a flat series holds, weaker
      const flatStatus = flat ? flat.status : (r.flat ? INCONCLUSIVE : HOLDS);
      let status = INCONCLUSIVE;
      if (growth.status === FAILS || flatStatus === FAILS) status = FAILS;
      else if ([HOLDS, WEAKER].includes(growth.status) && flatStatus === HOLDS) status = growth.status;
      const reasons = status === FAILS
        ? (growth.status === FAILS ? growth.reasons : flatReasons)
        : [...growth.reasons, ...flatReasons];
      decided = { status, reasons };
      parts.flat = flat;
    }
    parts = { ...parts, est: r.est, at: r.at ?? null, ref: r.ref ?? null, source: r.source };
    groups = r.groups;
    dropped = r.dropped;
  } else {
    throw new Error(`finding ${finding.id}: no check of kind ${check.kind}`);
  }

  // what the verdict rests on: each side's median block against its floor, the outliers, drift and contention
  const counted = groups.flatMap((g) => g.records);
  const checked = checkEvidence(decided, { rule, est: parts.est, groups, fields: [c.field, c.baselineField], descriptor: ctx.descriptor, blocks: counted, estimateWithout: estimateWithout(parts.est), estimateAgain: estimateAgain(parts.est), sizeRecord: ctx.sizeRecord, finding, records: own });
  decided = checked.decided;
  if (parts.missing) decided.reasons.push({ code: 'partner-missing', missing: parts.missing });
  const tested = TESTED.includes(decided.status);
  // a server far away (or the hop inside a cluster): where what each operation waited for on the
  // network is more than half of its time, the network could have made the ratio: inconclusive
  if (tested) decided = withNetwork(decided, networkOf(c, ctx, own));
  // flow control throttled the primary's writes during a step the verdict rests on: said
  const throttled = tested ? flowControlReason(counted) : null;
  if (throttled) decided.reasons.push(throttled);
  // where flow control could not be read (through mongos, serverStatus refused) beside timed writes: said
  const flowUnknown = tested ? flowControlUnknownReason(counted) : null;
  if (flowUnknown) decided.reasons.push(flowUnknown);
  // reads that may have gone to several members, and a read concern the URI gave every timed read: said
  // only a verdict on reads (a record that names no write concern) or on sizes (bytes) rests on what a member answered
  // (this server's records: a baseline's are not)
  const served = counted.filter((r) => r.server === ctx.server);
  const reads = served.some((r) => r.writeConcern === undefined);
  const onMember = reads || (served.length > 0 && fieldInfo(c.field).unit === 'bytes');
  const members = tested && onMember && !ctx.serverRecord?.startedByKit ? membersMayDifferReason(ctx.serverRecord, served) : null;
  if (members) decided.reasons.push(members);
  const readConcern = tested && reads && !ctx.serverRecord?.startedByKit ? readConcernReason(ctx.serverRecord) : null;
  if (readConcern) decided.reasons.push(readConcern);
  const shared = tested && counted.some((r) => r.otherRuns?.length);
  if (shared) decided.reasons.push({ code: 'shared-machine' });
  if (tested && (parts.duplicated || (ctx.misaligned?.size && counted.some((r) => ctx.misaligned.has(r))))) decided.reasons.push({ code: 'repeats-misaligned' });

  // the article's clock beside the deciding one: the same comparison, whatever it would say
  let articleClockEstimate = null;
  if (finding.clock && finding.clock.article !== finding.clock.decides && check.kind !== 'growth') {
    const other = { ...c, field: finding.clock.article, baselineField: finding.clock.article };
    const est = check.kind === 'near' ? nearCheck(other, ctx, rule).est : ratioCheck(other, ctx).est;
    if (est.n) articleClockEstimate = figures(est);
  }
  const status = untestable.length ? untestedStatus(untestable) : decided.status;
  return {
    ...base, ...clockFields, status, ...figures(parts.est), thresholds: rule,
    ...(parts.at !== undefined ? { at: parts.at } : {}), ...(parts.ref !== undefined ? { ref: parts.ref } : {}),
    ...(parts.points?.length ? { points: parts.points } : {}), ...(parts.flat !== undefined ? { flat: parts.flat } : {}),
    ...(parts.sides ? { sides: parts.sides } : {}), articleClockEstimate,
    reasons: untestable.length ? untestable : decided.reasons,
    // what was measured where the finding could not be tested: the figures stay, the status says why not
    ...(untestable.length ? { measuredInstead: { status: decided.status, reasons: decided.reasons } } : {}),
    ...restsOn(checked.evidence, dropped),
    ...extras, mechanism: tested && !untestable.length ? mechanismOf(finding, own) : null, shared,
  };
}

/**
 * A finding that compares servers (the compressed engine against the uncompressed one): the
 * servers are chosen by a field of their records, and it cannot be tested unless the run had
 * both. Their blocks pair by round where the conductor interleaved them; else one reading each.
 */
function judgeAcross(finding, ctx, base) {
  const { a, b } = finding.across;
  const serverOf = (sel) => ctx.records.find((r) => matches(r, { where: sel }))?.server;
  const sa = serverOf(a.select);
  const sb = serverOf(b.select);
  const c = checkOf(finding);
  const rule = ruleOf(c);
  const timed = fieldInfo(c.field).clock !== null;
  const clockFields = { field: c.field, clock: fieldInfo(c.field).clock, articleClock: finding.clock?.article ? fieldInfo(finding.clock.article).clock : null };
  const empty = { ...base, ...clockFields, server: 'all servers', ratio: null, lo: null, hi: null, n: 0, method: null, thresholds: rule, context: [], mechanism: null, shared: false };
  if (!sa || !sb) return { ...empty, status: UNTESTABLE, reasons: [{ code: 'needs-other-engine', hint: finding.across.hint }] };
  // one server's records as the numerator, the other's as the denominator: a check across servers
  const where = c.where || {};
  const relabel = (records, server, side) => records.filter((r) => r.server === server).map((r) => ({ ...r, server: 'across', acrossSide: side }));
  const pool = (records) => [...relabel(records, sa, 'a'), ...relabel(records, sb, 'b')];
  const sub = { ...ctx, server: 'across', records: pool(ctx.records), blocks: pool(ctx.blocks), raw: pool(ctx.raw) };
  const across = { ...c, num: { ...where, acrossSide: 'a' }, den: { ...where, acrossSide: 'b' } };
  const cmp = comparison(across, sub, across.num, across.den);
  const est = estimateOf(cmp);
  let decided = est.n ? decide(rule, est, { timed })
    : cmp.noPairs && cmp.num && cmp.den ? { status: INCONCLUSIVE, reasons: [{ code: 'no-pairs', ...cmp.noPairs }] }
      : { status: UNTESTABLE, reasons: [{ code: 'not-measured', where: 'on both' }] };
  // each side named by its server, not by the selection that set the two apart
  const serverOfLabel = new Map([[sideLabel(across.num), sa], [sideLabel(across.den), sb]]);
  const onServer = (label) => `${fieldInfo(c.field).words} on ${serverOfLabel.get(label) ?? label}`;
  const groups = (cmp.groups || []).map((g) => ({ ...g, label: onServer(g.label) }));
  const checked = checkEvidence(decided, { rule, est, groups, fields: [c.field], descriptor: ctx.descriptor, blocks: groups.flatMap((g) => g.records), estimateWithout: estimateWithout(est), estimateAgain: estimateAgain(est) });
  decided = checked.decided;
  const why = [[sa, a], [sb, b]].flatMap(([server]) => unmet(finding.requires, ctx.records.filter((r) => r.server === server))
    .map((reason) => ({ ...reason, text: `on ${server}: ${reason.text}` })));
  // other servers of the run beside it, against the same reference (snappy beside zstd)
  const vb = cmp.den?.value;
  const also = (finding.across.also || []).map((o) => {
    const so = serverOf(o.select);
    const vo = so ? pick(ctx.records.filter((r) => r.server === so), where).find((r) => Number.isFinite(r[c.field]))?.[c.field] : undefined;
    return Number.isFinite(vo) && vb ? { label: o.label, server: so, ratio: vo / vb } : null;
  }).filter(Boolean);
  let articleClockEstimate = null;
  if (finding.clock && finding.clock.article !== finding.clock.decides) {
    const other = estimateOf(comparison({ ...across, field: finding.clock.article }, sub, across.num, across.den, { field: finding.clock.article }));
    if (other.n) articleClockEstimate = figures(other);
  }
  const relabelDropped = (d) => ({ ...d, side: d.side ? onServer(d.side) : null });
  return {
    ...empty, servers: [sa, sb], status: why.length ? untestedStatus(why) : decided.status, ...figures(est),
    sides: { num: cmp.num && { ...sideFigure(cmp.num, {}), label: sa }, den: cmp.den && { ...sideFigure(cmp.den, {}), label: sb } },
    also, articleClockEstimate, reasons: why.length ? why : decided.reasons, ...(why.length ? { measuredInstead: decided } : {}),
    ...restsOn(checked.evidence, [...(cmp.dropped || []), ...est.dropped].map(relabelDropped)),
  };
}

/** The check kinds a finding may name. */
const CHECK_KINDS = ['ratio', 'near', 'growth', 'crossing', 'publishedOnly'];

module.exports = { judge, checkOf, unmet, mechanismOf, ruleReasons, CHECK_KINDS };
