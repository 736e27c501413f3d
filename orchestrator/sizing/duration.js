'use strict';
// Durations as a user writes them on the command line (--budget 90s, 5m, 1m30s, 1h) and as the
// kit prints them back.

const UNITS = { h: 3600, m: 60, s: 1 };

/** Seconds in "90s", "5m", "1m30s", "1h", "1.5m" or a bare number of seconds; null if unreadable. */
function parseDuration(text) {
  const s = String(text).trim();
  if (/^\d+(\.\d+)?$/.test(s)) return Number(s);
  if (!/^(\d+(\.\d+)?[hms])+$/.test(s)) return null;
  let seconds = 0;
  let lastUnit = Infinity;
  for (const [, n, , unit] of s.matchAll(/(\d+(\.\d+)?)([hms])/g)) {
    if (UNITS[unit] >= lastUnit) return null; // 5m1h, 30s30s: not a duration
    lastUnit = UNITS[unit];
    seconds += Number(n) * UNITS[unit];
  }
  return seconds;
}

/** 45s, 1m30s, 4m, 1h05m: seconds as a --budget would be written. */
function formatDuration(seconds) {
  const s = Math.round(seconds);
  if (s < 120) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${s % 60 ? `${String(s % 60).padStart(2, '0')}s` : ''}`;
  const m = Math.round((s % 3600) / 60);
  return `${Math.floor(s / 3600)}h${m ? String(m).padStart(2, '0') + 'm' : ''}`;
}

/** A budget a little above seconds, in steps a user would type (10 s, then 30 s, then minutes). */
function roundUpBudget(seconds) {
  const step = seconds <= 120 ? 10 : seconds <= 600 ? 30 : 60;
  return Math.ceil(seconds / step) * step;
}

module.exports = { parseDuration, formatDuration, roundUpBudget };
