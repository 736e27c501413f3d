'use strict';
// The paired samples every check that compares two sides rests on (docs/outputs.md, "Paired
// rounds"): the block records of each side, paired by round, warm-up and incomplete blocks left
// out; a script's own samples (sampleBy); its repeats (--repeat); else one reading per side. And
// the estimate made from them (estimate.js): the geometric mean of the pairs' ratios, its interval
// Student's t on their logs, runs combined, with the minimum of pairs tied to the rounds the run
// planned (minPairs). The check kinds (checks/) and the judge (judge.js) share it; none repeats it.
const { matches } = require('../results/records');
const { fieldInfo, spanMs } = require('../results/fields');
const { pairedEstimate, combinedEstimate, singleEstimate, minPairs } = require('./estimate');

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

/** A side's total as the views show it: { label, value, unit, field }. */
function sideFigure(total, sel) {
  if (!total) return null;
  return { label: describeSelection(sel), value: total.value, field: total.field, unit: fieldInfo(total.field).unit };
}

module.exports = {
  pick, inSelection, describeSelection, sideLabel, pairKey, blockPlace, splitBlocks, plannedRounds, sideRecords,
  samplesOf, repeatKey, repeatsIn, comparison, estimateFromPairs, estimateOf, estimateWithout, estimateAgain, sideFigure,
};
