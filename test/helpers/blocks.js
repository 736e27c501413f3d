'use strict';
// Crafted paired rounds for verdict tests: an aggregate record (a cell as a run prints it) cut into
// `rounds` block records, each with its share of the cell's timed fields and counts, and a
// multiplicative wobble drawn from the record's own identity, so two sides wobble apart and the
// pairs' ratios have a spread (an interval of some width) around the aggregate's ratio.
//
// A run's noise is more than that, and a test of the verdicts must be able to see it: a shape
// multiplies chosen blocks' timed figures (a drift over the rounds, a cold first round, an outlier,
// a block cut short under its floor, a run effect across --repeat runs), runs: K gives K runs of
// the rounds (repeat 1..K), and warmup gives each record a warm-up block (round 0, warmup: true)
// before round 1, as the run writes them.
const { fieldInfo } = require('../../orchestrator/results/fields');

/** A number in [-1, 1) from a text and an index: the same for the same cell and round. */
function wobble(text, i) {
  let h = 2166136261;
  for (const c of `${i}#${text}`) h = Math.imul(h ^ c.charCodeAt(0), 16777619);
  // murmur3's finaliser: every bit of the hash moves every bit of the result
  h ^= h >>> 16; h = Math.imul(h, 0x85ebca6b); h ^= h >>> 13; h = Math.imul(h, 0xc2b2ae35); h ^= h >>> 16;
  return ((h >>> 0) / 4294967296) * 2 - 1;
}

/** Whether a field is a timed span (s, ms): cut into the blocks, each its share. */
const isSpan = (field) => ['s', 'ms'].includes(fieldInfo(field).unit) && fieldInfo(field).clock !== null;
/** Whether a field is read on a clock (a span, or a mean latency): each block's wobbles. */
const isTimed = (field) => fieldInfo(field).clock !== null;

/**
 * The blocks of one record: rounds of it, each with the spans and counts divided by rounds, every
 * timed figure times (1 + spread × wobble) × shape(record, { round, repeat, warmup }). counts: the
 * count fields to divide (comments, updates, iterations). runs: K runs of the rounds, each block
 * with its repeat (1..K); warmup: a factor for a warm-up block before round 1 (round 0).
 */
function blocksOf(record, { rounds = 8, spread = 0.05, counts = [], key = JSON.stringify(record), shape = () => 1, runs = 1, warmup = null } = {}) {
  const block = (round, repeat, isWarmup) => {
    const i = (repeat - 1) * (rounds + 1) + round;
    const k = (1 + spread * wobble(key, runs > 1 ? i : round - 1)) * shape(record, { round, repeat, warmup: isWarmup }) * (isWarmup ? warmup : 1);
    const b = { ...record, type: 'block', round, rounds, position: 1, ...(runs > 1 ? { repeat } : {}), ...(isWarmup ? { warmup: true } : {}) };
    for (const [f, v] of Object.entries(record)) {
      if (typeof v !== 'number') continue;
      if (isSpan(f)) b[f] = (v / rounds) * k;
      else if (isTimed(f)) b[f] = v * k;
      else if (counts.includes(f)) b[f] = v / rounds;
    }
    return b;
  };
  return Array.from({ length: runs }, (_, r) => [
    ...(warmup ? [block(0, r + 1, true)] : []),
    ...Array.from({ length: rounds }, (__, i) => block(i + 1, r + 1, false)),
  ]).flat();
}

/** Every record's blocks, and the records themselves (the aggregate lines the tables read). */
function withBlocks(records, options = {}) {
  return { measurements: records, blocks: records.flatMap((r) => blocksOf(r, options)) };
}

// Shapes: each (record, { round, repeat, warmup }) → a factor on a block's timed figures, for the
// records where(record) picks (every record by default)
const all = () => true;
/** A drift: each round perRound times the one before (1.08: 8% slower a round). */
const drift = (perRound, where = all) => (r, { round }) => (where(r) && round >= 1 ? perRound ** (round - 1) : 1);
/** A cold first round: round 1 factor times slower. */
const coldFirst = (factor, where = all) => (r, { round }) => (where(r) && round === 1 ? factor : 1);
/** One round's block factor times its time: an outlier, or with a small factor a block cut short under its floor. */
const oneBlock = (atRound, factor, where = all) => (r, { round, warmup }) => (where(r) && round === atRound && !warmup ? factor : 1);
/** A run effect: run k (repeat) factors[k − 1] times slower, every block of it. */
const runEffect = (factors, where = all) => (r, { repeat }) => (where(r) ? factors[repeat - 1] ?? 1 : 1);
/** Shapes together. */
const compose = (...shapes) => (r, at) => shapes.reduce((k, s) => k * s(r, at), 1);

module.exports = { blocksOf, withBlocks, wobble, drift, coldFirst, oneBlock, runEffect, compose };
