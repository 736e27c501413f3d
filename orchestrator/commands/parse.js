'use strict';
// Option parsers for commander: each throws InvalidArgumentError with what is accepted, so bad
// input gets commander's one line and exit code 2.
const { InvalidArgumentError } = require('commander');
const { parseDuration } = require('../sizing/duration');

function parsePasses(value) {
  if (!/^\d+$/.test(value) || Number(value) < 1) throw new InvalidArgumentError('Not a whole number of at least 1.');
  return Number(value);
}

/** --rounds: at least 2 (an interval needs two pairs; a verdict needs 8, from rounds × repeats). */
function parseRounds(value) {
  if (!/^\d+$/.test(value) || Number(value) < 2 || Number(value) > 1000) throw new InvalidArgumentError('Not a whole number from 2 to 1000.');
  return Number(value);
}

function parseFraction(value) {
  const n = Number(value);
  if (!/^\d*\.?\d+$/.test(value) || !(n > 0 && n < 10)) throw new InvalidArgumentError('Not a fraction above 0, such as 0.1.');
  return n;
}

function parseSeed(value) {
  if (!/^\d+$/.test(value) || Number(value) > 2 ** 32 - 1) throw new InvalidArgumentError('Not a whole number from 0 to 4294967295.');
  return Number(value);
}

function parseSetting(value, previous) {
  const m = /^([A-Z][A-Z0-9_]*)=(\d+)$/.exec(value);
  if (!m) throw new InvalidArgumentError('Not NAME=NUMBER, with NAME a size variable such as DOCS.');
  return { ...previous, [m[1]]: Number(m[2]) };
}

/** --budget: seconds from 90s, 5m, 1m30s, 1h (or a bare number of seconds). */
function parseBudget(value) {
  const seconds = parseDuration(value);
  if (seconds === null || !(seconds >= 1)) throw new InvalidArgumentError('Not a duration of at least 1s, such as 90s, 5m or 1m30s.');
  return seconds;
}

function collect(value, previous) {
  return previous.concat([value]);
}

module.exports = { parsePasses, parseRounds, parseFraction, parseSeed, parseSetting, parseBudget, collect };
