'use strict';
// Crafted measurements for each finding of log-inserts, one set per outcome it can come to (holds,
// does not hold, inconclusive, cannot be tested here): test/unit/verdicts.test.js runs every
// scenario's cases through the same path a report takes.
const fs = require('node:fs');
const path = require('node:path');
const { HOLDS, FAILS, INCONCLUSIVE, UNTESTABLE } = require('../../../orchestrator/report/verdicts');

const publishedData = () => JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'published.json'), 'utf8'));

const sql = (step, sqlMs, saveMs) => [
  ...(sqlMs === null ? [] : [{ server: 'postgresql', step, method: 'sql', ms: sqlMs }]),
  { step, method: 'save', ms: saveMs, writeConcern: 'w:0' },
  { step, method: 'insert', ms: saveMs / 2, writeConcern: 'w:0' },
];
// test 2 as the combined shells give it: sent in `sent` ms (w:0: sending only, alike for both
// methods), applied in the ms given (the upserts' cost on the server shows only there)
const saves = (saveMs, insertMs, sent = 100) => [
  ...(saveMs === null ? [] : [{ step: 'test2', method: 'save', ms: sent, appliedMs: saveMs, writeConcern: 'w:0', upsertCostText: 'an upsert by _id: UPDATE <- EXPRESS; one took 0.08 ms into an empty collection and 0.09 ms into this one of 200 documents (1.13x)' }]),
  { step: 'test2', method: 'insert', ms: sent, appliedMs: insertMs, writeConcern: 'w:0' },
];

/** finding → outcome → { records, server? (the verdict's, default the records' own), measured? (a pattern its text must match) } */
const cases = {
  'mongo-beats-sql-test1': {
    [HOLDS]: { records: sql('test1', 21310, 760), measured: /28\.04×.*MongoDB writes: w:0/ },
    [FAILS]: { records: sql('test1', 800, 760) },
    [INCONCLUSIVE]: { records: sql('test1', 1200, 760) },
    [UNTESTABLE]: { records: sql('test1', null, 760), measured: /not measured/ },
  },
  'mongo-beats-sql-test2': {
    [HOLDS]: { records: sql('test2', 294800, 6190), measured: /47\.63×/ },
    [FAILS]: { records: sql('test2', 6000, 6190) },
    [INCONCLUSIVE]: { records: sql('test2', 9000, 6190) },
    [UNTESTABLE]: { records: sql('test2', null, 6190) },
  },
  'insert-beats-save': {
    // decided on the applied time, the send time beside it (both sent in 100 ms here: a verdict on
    // the send time would be 1.00×, a different answer)
    [HOLDS]: { records: saves(6190, 2900), measured: /^2\.13× \(appliedMs 6,190 \/ 2,900\) \[MongoDB writes: w:0; save sent in \(ms\): 100; insert sent in \(ms\): 100; save: an upsert by _id: UPDATE <- EXPRESS.*1\.13x\)\]$/ },
    [FAILS]: { records: saves(3000, 2900, 500) },
    [INCONCLUSIVE]: { records: saves(3800, 2900) },
    [UNTESTABLE]: { records: saves(null, 2900) },
  },
};

const tooSmall = [];

module.exports = { cases, tooSmall, sql };
