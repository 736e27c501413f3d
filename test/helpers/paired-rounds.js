'use strict';
// The scripts' paired rounds block (the text every script that cuts an article's loop into paired
// blocks holds a copy of; test/unit/shared-blocks.test.js holds the copies equal), run here so that
// a suite computes the shares and orders a run used from the run's own rounds and seed.
const fs = require('node:fs');
const vm = require('node:vm');

/** { roundShares, roundOrders, ... } as the block in `script` defines them. */
function pairedRoundsOf(script) {
  const text = fs.readFileSync(script, 'utf8');
  const start = text.indexOf('// --- paired rounds');
  if (start < 0) throw new Error(`${script} has no paired rounds block`);
  const sandbox = {};
  vm.runInNewContext(text.slice(start, text.indexOf('// --- end paired rounds ---', start)), sandbox);
  return sandbox;
}

module.exports = { pairedRoundsOf };
