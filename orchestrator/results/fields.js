'use strict';
// What a measured field holds: its unit, the clock it was read on and its name in a reader's
// words, in one table. Verdicts, the report, compare and the exports ask here; none of them
// guesses a unit from a field's name. A field the table does not list is read by its suffix
// (…Ms, …Us, …Seconds, …Bytes), the scripts' naming rule, and otherwise has no unit.

/**
 * The clocks a timed field can be read on:
 * - send: from before the loop until the shell had sent its last write (the articles' own
 *   clocks, new Date() or performance.now(); with w:0 writes, the sending alone);
 * - applied: until the server had applied every write (a command sent after the last one on
 *   its connection returned);
 * - durable: until the writes were on disk (a journal flush after them);
 * - latency: the mean time of one operation (reads).
 */
const CLOCKS = {
  send: 'send time',
  applied: 'applied time',
  durable: 'time to durability',
  latency: 'mean latency',
};

/** Fields by name: unit, clock (timed fields only) and words where the name does not say them. */
const FIELDS = {
  seconds: { unit: 's', clock: 'send' },
  ms: { unit: 'ms', clock: 'send' },
  hrMs: { unit: 'ms', clock: 'send' },
  appliedSeconds: { unit: 's', clock: 'applied' },
  appliedMs: { unit: 'ms', clock: 'applied' },
  appliedHrMs: { unit: 'ms', clock: 'applied' },
  durableMs: { unit: 'ms', clock: 'durable' },
  meanUs: { unit: 'µs', clock: 'latency' },
  serverMs: { unit: 'ms', words: 'the server\'s own time' },
  storagePlusIndexBytes: { unit: 'bytes', words: 'data on disk + indexes' },
  size: { unit: 'bytes', words: 'data size' },
  storageSize: { unit: 'bytes', words: 'size on disk' },
  totalIndexSize: { unit: 'bytes', words: 'index size' },
  avgObjSize: { unit: 'bytes', words: 'mean document size' },
  freeStorageSize: { unit: 'bytes', words: 'free space on disk' },
  reusableBytes: { unit: 'bytes', words: 'reusable space on disk' },
  totalRelationSize: { unit: 'bytes', words: 'table size' },
  documentBytes: { unit: 'bytes', words: 'largest document' },
};

/** The units of the fields the table does not list, by the scripts' suffixes. */
const SUFFIXES = [
  [/(^seconds|Seconds)$/, 's'],
  [/(^ms|Ms)$/, 'ms'],
  [/Us$/, 'µs'],
  [/Bytes$/, 'bytes'],
];

/** camelCase and dotted names in words: perBlog → "per blog", lowMemory.outcome → "low memory outcome". */
function nameInWords(name) {
  return String(name).replace(/\./g, ' ').replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
}

/**
 * What a field holds: { unit ('s', 'ms', 'µs', 'bytes' or null), clock (a CLOCKS key or null),
 * words (the field as a reader names it: a clock's name for a timed field) }.
 */
function fieldInfo(field) {
  const known = FIELDS[field];
  const unit = known?.unit ?? SUFFIXES.find(([re]) => re.test(field))?.[1] ?? null;
  const clock = known?.clock ?? null;
  const words = known?.words ?? (clock ? CLOCKS[clock] : nameInWords(field));
  return { unit, clock, words };
}

/** ms in a value of a field whose unit is a span of time (s or ms); null for any other (a mean in µs, a size). */
function spanMs(field, value) {
  if (!Number.isFinite(value)) return null;
  const { unit } = fieldInfo(field);
  if (unit === 'ms') return value;
  if (unit === 's') return value * 1000;
  return null;
}

module.exports = { fieldInfo, spanMs, nameInWords, CLOCKS, FIELDS };
