'use strict';
// Crafted paired rounds for verdict tests: an aggregate record (a cell as a run prints it) cut into
// `rounds` block records, each with its share of the cell's timed fields and counts, and a
// multiplicative wobble drawn from the record's own identity, so two sides wobble apart and the
// pairs' ratios have a spread (an interval of some width) around the aggregate's ratio.
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
 * timed figure times (1 + spread × wobble). counts: the count fields to divide (comments, updates,
 * iterations).
 */
function blocksOf(record, { rounds = 8, spread = 0.05, counts = [], key = JSON.stringify(record) } = {}) {
  return Array.from({ length: rounds }, (_, i) => {
    const k = 1 + spread * wobble(key, i);
    const block = { ...record, type: 'block', round: i + 1, rounds, position: 1 };
    for (const [f, v] of Object.entries(record)) {
      if (typeof v !== 'number') continue;
      if (isSpan(f)) block[f] = (v / rounds) * k;
      else if (isTimed(f)) block[f] = v * k;
      else if (counts.includes(f)) block[f] = v / rounds;
    }
    return block;
  });
}

/** Every record's blocks, and the records themselves (the aggregate lines the tables read). */
function withBlocks(records, options = {}) {
  return { measurements: records, blocks: records.flatMap((r) => blocksOf(r, options)) };
}

module.exports = { blocksOf, withBlocks, wobble };
