'use strict';
// Crafted measurements for each finding of power-of-2-sizes, one set per outcome it can come to (holds,
// does not hold, inconclusive, cannot be tested here): test/unit/verdicts.test.js runs every
// scenario's cases through the same path a report takes.
const fs = require('node:fs');
const path = require('node:path');
const { HOLDS, FAILS, INCONCLUSIVE, UNTESTABLE } = require('../../../orchestrator/report/verdicts');

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

/** finding → outcome → { records, server? (the verdict's, default the records' own), measured? (a pattern its text must match) } */
const cases = {
  'sizes-cross': {
    [HOLDS]: { records: p2s(), measured: /larger by 29\.9% at pass 1, smaller by 8\.3% at pass 21; crosses at pass 6/ },
    [FAILS]: { records: p2s({ size: scalePower('size', 1.5) }) },
    [INCONCLUSIVE]: { records: p2s({ size: (r) => (r.collection === 'powerOf2Sizes' && r.pass === 21 ? 223309000 * 1.01 : r.size) }) },
    // today's servers store both alike: sizes within 0.04% of each other, above and below in turn, never "cross"
    [UNTESTABLE]: { records: p2s({ outcome: 'refused', size: alike }), measured: /no server this kit can reach has MMAPv1.*measured instead: powerOf2Sizes larger by 0\.0% at pass 1, larger by 0\.0% at pass 21$/ },
  },
  'same-speed': {
    [HOLDS]: { records: p2s(), measured: /1\.04× \(send time summed 462,981 \/ 446,995 ms\)/ },
    [FAILS]: { records: p2s({ hrMs: scalePower('ms', 1.5) }) },
    [INCONCLUSIVE]: { records: p2s({ hrMs: scalePower('ms', 1.2) }) },
    // WiredTiger takes the option and ignores it: equal times there prove nothing
    [UNTESTABLE]: { records: p2s({ outcome: 'ignored' }), measured: /MMAPv1.*two like collections.*measured instead: 1\.04×.*writes: w:0/ },
  },
};

const tooSmall = [];

module.exports = { cases, tooSmall };
