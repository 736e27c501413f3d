'use strict';
// The publishedOnly kind: a finding about what no server today runs (TokuMX): said with the
// article's figure and its reason, never measured.
const { PUBLISHED_ONLY } = require('../rules');

module.exports = {
  kind: 'publishedOnly',
  about: 'no server today can run it',
  decides: false,
  saysFigure: false,
  detailFields: [],
  words: () => '',
  /** The finding as published: its reason, no figure of the run's. */
  judge: (c) => ({ decided: { status: PUBLISHED_ONLY, reasons: [{ code: 'published-only', text: c.reason }] } }),
};
