'use strict';
// The scripts' paired rounds block (shell/_blocks/paired-rounds.js, stamped into every script that
// cuts an article's loop into paired blocks), run here so that a suite computes the shares and
// orders a run used from the run's own rounds and seed.
const fs = require('node:fs');
const vm = require('node:vm');
const { stampedBlock } = require('../../scripts/stamp');

/** { roundShares, roundOrders, ... } as the block in `script` defines them. */
function pairedRoundsOf(script) {
  const sandbox = {};
  vm.runInNewContext(stampedBlock(fs.readFileSync(script, 'utf8'), 'paired-rounds'), sandbox);
  return sandbox;
}

module.exports = { pairedRoundsOf };
