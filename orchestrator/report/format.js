'use strict';

const FORMATS = {
  int: (v) => Math.round(v).toLocaleString('en-US'),
  fixed1: (v) => v.toLocaleString('en-US', { minimumFractionDigits: 1, maximumFractionDigits: 1 }),
  fixed2: (v) => v.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 }),
  raw: (v) => String(v),
};

/** A value for a table cell: '–' where nothing was measured. */
function formatValue(value, format = 'raw') {
  if (value === undefined || value === null || Number.isNaN(value)) return '–';
  if (typeof value !== 'number') return String(value);
  return (FORMATS[format] || FORMATS.raw)(value);
}

function formatBytes(bytes) {
  if (!Number.isFinite(bytes)) return '–';
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let v = bytes;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) { v /= 1024; u += 1; }
  return `${v.toFixed(u ? 1 : 0)} ${units[u]}`;
}

/**
 * Text the servers and scripts wrote, made safe to put in a markdown line or table cell: a `|`
 * would split the cell, and an underscore at a word's edge (PostgreSQL's `_id_` index, `$_id`)
 * would start emphasis. Underscores inside a word (`log_save_8a7d`, `maxWireVersion`) are left.
 */
function markdownText(text) {
  return String(text).replace(/\|/g, '\\|').replace(/(^|\W)_|_(?=\W|$)/g, (m, before) => (before === undefined ? '\\_' : `${before}\\_`));
}

module.exports = { formatValue, formatBytes, markdownText };
