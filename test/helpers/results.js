'use strict';
const path = require('node:path');
const { readResults } = require('../../orchestrator/results/log');

/** A run folder's results.jsonl, split by record type. */
function loadRun(dir) {
  const { records, problems } = readResults(path.join(dir, 'results.jsonl'));
  const of = (type) => records.filter((r) => r.type === type);
  return {
    records,
    problems,
    run: of('run')[0],
    servers: of('server'),
    measurements: of('measurement'),
    failures: of('failure'),
    end: of('end')[0],
  };
}

module.exports = { loadRun };
