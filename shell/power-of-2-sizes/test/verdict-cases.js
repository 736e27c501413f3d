'use strict';
// Crafted measurements for each finding of power-of-2-sizes, one set per outcome it can come to (holds,
// does not hold, inconclusive, cannot be tested here): test/unit/verdicts.test.js cuts each into
// paired rounds (test/helpers/blocks.js) and runs them through the analysis a report takes.
const fs = require('node:fs');
const path = require('node:path');
const { HOLDS, FAILS, INCONCLUSIVE, UNTESTABLE } = require('../../../orchestrator/analysis/rules');

const publishedData = () => JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'published.json'), 'utf8'));

function p2s({ outcome = 'applied', size = (r) => r.size, hrMs = (r) => r.ms } = {}) {
  const published = publishedData().records;
  return [
    { step: 'setup', collection: 'powerOf2Sizes', usePowerOf2Sizes: { outcome, reason: outcome === 'applied' ? null : 'no collMod' } },
    ...published.filter((r) => r.step === 'pass').map((r) => ({ ...r, size: size(r), hrMs: hrMs(r), writeConcern: 'w:0' })),
  ];
}
/** powerOf2Sizes' size as noPowerOf2Sizes' in the same pass, 0.04% above it in odd passes and below in even ones. */
function alike(r) {
  if (r.collection !== 'powerOf2Sizes') return r.size;
  alike.padded ??= new Map(publishedData().records.filter((o) => o.step === 'pass' && o.collection === 'noPowerOf2Sizes').map((o) => [o.pass, o.size]));
  return alike.padded.get(r.pass) * (r.pass % 2 ? 1.0004 : 0.9996);
}
const scalePower = (field, k, onlyPass) => (r) => (r.collection === 'powerOf2Sizes' && (onlyPass === undefined || r.pass === onlyPass) ? r[field] * k : r[field]);

/** finding → outcome → { records, server?, sizes?, expect? ({ ratio ±2%, crossing, reasons: codes }) } */
const cases = {
  'sizes-cross': {
    [HOLDS]: { records: p2s(), expect: { crossing: { first: 0.299, last: -0.083, crossAt: 6 } } },
    [FAILS]: { records: p2s({ size: scalePower('size', 1.5) }) },
    [INCONCLUSIVE]: { records: p2s({ size: (r) => (r.collection === 'powerOf2Sizes' && r.pass === 21 ? 223309000 * 1.01 : r.size) }) },
    // today's servers store both alike: sizes within 0.04% of each other, above and below in turn, never "cross"
    [UNTESTABLE]: { records: p2s({ outcome: 'refused', size: alike }), expect: { reasons: ['requirement-unmet'], crossing: { first: 0.0004, last: 0.0004, crossAt: null } } },
  },
  'same-speed': {
    [HOLDS]: { records: p2s(), expect: { ratio: 1.036 } },
    [FAILS]: { records: p2s({ hrMs: scalePower('ms', 1.5) }) },
    [INCONCLUSIVE]: { records: p2s({ hrMs: scalePower('ms', 1.11) }), expect: { reasons: ['straddles'] } },
    // WiredTiger takes the option and ignores it: equal times there prove nothing
    [UNTESTABLE]: { records: p2s({ outcome: 'ignored' }), expect: { reasons: ['requirement-unmet'], ratio: 1.036, context: ['writes'] } },
  },
};

const tooSmall = [];

/** The count fields a block holds its share of. */
const counts = ['ops'];

module.exports = { cases, tooSmall, counts };
