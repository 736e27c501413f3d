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

// formatBytes says a verdict's sizes too, so it lives with the analysis's other number words
const { formatBytes } = require('../analysis/reasons');

// markdownText (text a server or a script wrote, for markdown) lives with the other encoders in escape.js
const { markdownText } = require('./escape');

module.exports = { formatValue, formatBytes, markdownText };
