'use strict';
// npm test's list of files (test/order.js): every test file of the tree once, the longest first.
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { testOrder, LONGEST } = require('../order');

const ROOT = path.resolve(__dirname, '..', '..');

/** Every *.test.js under test/ and shell/, as paths from the root. */
function testFiles(dir = ROOT, rel = '') {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    if (e.name === 'node_modules' || e.name.startsWith('.')) return [];
    const r = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory()) return ['test', 'shell'].includes(r.split('/')[0]) ? testFiles(path.join(dir, e.name), r) : [];
    return e.name.endsWith('.test.js') ? [r] : [];
  });
}

describe('npm test\'s order of files (test/order.js)', () => {
  it('names every test file of the tree once, and nothing else', () => {
    const order = testOrder();
    assert.equal(new Set(order).size, order.length, 'a file named twice runs twice in mocha\'s parallel mode');
    assert.deepEqual([...order].sort(), testFiles().filter((f) => !f.startsWith('test/fixtures/')).sort());
  });

  it('starts the scenario suites (which make the shared fixture runs), then the longest integration files', () => {
    const order = testOrder();
    const servers = order.filter((f) => /^shell\/[^/]+\/test\/servers\.test\.js$/.test(f));
    assert.ok(servers.length >= 5);
    assert.deepEqual(order.slice(0, servers.length), servers);
    assert.deepEqual(order.slice(servers.length, servers.length + LONGEST.length), LONGEST);
  });
});
