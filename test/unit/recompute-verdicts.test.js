'use strict';
// Every decided verdict of the kept examples recomputed by an independent hand
// (test/helpers/recompute-verdicts.js): its interval again from its own pairs with a t table
// written there, its status again from its own thresholds by the rules re-implemented plainly. A
// verdict whose figures or status the analysis changed without saying so fails here. The fixture
// runs' verdicts: test/integration/verdicts-recomputed.test.js.
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { recompute, statusFrom, T975 } = require('../helpers/recompute-verdicts');

const EXAMPLES = path.resolve(__dirname, '../../reports/examples');

describe('every decided verdict recomputed by an independent hand', () => {
  it('checks its own t table against the values everyone prints (12.706 at 1 df, 2.365 at 7, 2.042 at 30)', () => {
    assert.deepEqual([T975[1], T975[7], T975[30]].map((t) => t.toFixed(3)), ['12.706', '2.365', '2.042']);
    // and the independent status against cases worked by hand: an order of 28× holds past √28
    const order = { says: 'order', direction: 'atLeast', holdsAt: Math.sqrt(28), failsAt: 1.2 };
    assert.deepEqual([[6, 7], [2, 4], [1, 1.1], [1.1, 6]].map(([lo, hi]) => statusFrom(order, lo, hi)), ['holds', 'holds, weaker', 'does not hold', 'inconclusive']);
    assert.equal(statusFrom({ ...order, direction: 'atMost', holdsAt: 1 / Math.sqrt(28), failsAt: 1 / 1.2 }, 1 / 7, 1 / 6), 'holds');
  });

  for (const dir of fs.readdirSync(EXAMPLES).filter((d) => fs.existsSync(path.join(EXAMPLES, d, 'verdicts.json')))) {
    it(`in the kept example ${dir}`, () => {
      const { checked, skipped } = recompute(path.join(EXAMPLES, dir, 'verdicts.json'));
      if (skipped.length) console.log(`      ${dir}: interval not recomputed from pairs (runs combined): ${skipped.join('; ')}`);
      // side-by-side pages hold other runs' verdicts; each example with a verdicts.json has some decided
      assert.ok(checked >= 0);
    });
  }

  it('in the kept examples together: at least five decided verdicts recomputed', () => {
    let checked = 0;
    for (const dir of fs.readdirSync(EXAMPLES).filter((d) => fs.existsSync(path.join(EXAMPLES, d, 'verdicts.json')))) checked += recompute(path.join(EXAMPLES, dir, 'verdicts.json')).checked;
    assert.ok(checked >= 5, `${checked} decided verdicts`);
  });
});
