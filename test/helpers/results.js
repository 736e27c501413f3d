'use strict';
// Tests read a run as every consumer does: through the results reader.
const { readRun } = require('../../orchestrator/results/reader');

module.exports = { loadRun: readRun };
