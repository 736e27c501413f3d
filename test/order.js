'use strict';
// The order in which `npm test` gives mocha its files (test/run.js; `node test/order.js` prints it),
// each once. Mocha's workers take the files in this order, each the next when one is done, so the
// longest go first (the scenario suites, which make the shared fixture runs, then the longest
// integration files by their last measured times: docs/measurements/ci.md) and none of them starts
// last; the rest follow in the order of their folders. Mocha in parallel mode runs a file named
// twice twice, so the list is made here rather than by naming some files before their folder.
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');

/**
 * The integration files that take longest in the pool, longest first (npm test of 29 November 2026,
 * docs/measurements/ci.md). contention.test.js is not among them: its tests run after the pool.
 */
const LONGEST = ['paired-servers', 'sizing', 'resume', 'paste', 'mongod-launcher', 'report-page', 'signals', 'cluster', 'faults', 'lean-path', 'invalid-arguments']
  .map((name) => `test/integration/${name}.test.js`);

const filesIn = (dir, pattern = /\.test\.js$/) => fs.readdirSync(path.join(ROOT, dir)).filter((f) => pattern.test(f)).sort().map((f) => `${dir}/${f}`);
const scenarioSuites = (name) => fs.readdirSync(path.join(ROOT, 'shell')).sort()
  .map((s) => `shell/${s}/test/${name}.test.js`).filter((f) => fs.existsSync(path.join(ROOT, f)));

/** Every test file of npm test, each once, in the order mocha is to start them. */
function testOrder() {
  const all = [
    ...scenarioSuites('servers'),
    ...LONGEST,
    ...filesIn('test/integration'),
    ...filesIn('test/unit'),
    ...scenarioSuites('unit'),
  ];
  return [...new Set(all)];
}

/** The test files that hold a test tagged @serial (test/run.js runs those alone, after the pool). */
const serialFiles = (files = testOrder()) => files.filter((f) => fs.readFileSync(path.resolve(ROOT, f), 'utf8').includes('@serial'));

module.exports = { testOrder, serialFiles, LONGEST };

if (require.main === module) process.stdout.write(`${testOrder().join(' ')}\n`);
