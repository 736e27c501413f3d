'use strict';
// Crafted measurements for each finding of log-inserts, one set per outcome it can come to (holds,
// does not hold, inconclusive, cannot be tested here): test/unit/verdicts.test.js runs every
// scenario's cases through the same path a report takes.
const fs = require('node:fs');
const path = require('node:path');
const { HOLDS, FAILS, INCONCLUSIVE, UNTESTABLE } = require('../../../orchestrator/report/verdicts');

const publishedData = () => JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'published.json'), 'utf8'));

// the SQL baseline's time (each insert waited for: its own clock, no applied time of its own), the
// saves' applied time and, where the test gives it, their send time (else the same)
const sql = (step, sqlMs, saveMs, sentMs = saveMs) => [
  ...(sqlMs === null ? [] : [{ server: 'postgresql', step, method: 'sql', ms: sqlMs }]),
  { step, method: 'save', ms: sentMs, appliedMs: saveMs, writeConcern: 'w:0' },
  { step, method: 'insert', ms: sentMs / 2, appliedMs: saveMs / 2, writeConcern: 'w:0' },
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
    [HOLDS]: { records: sql('test1', 21310, 760), measured: /^28\.04× \(applied time 21,310 \/ 760 ms\); beside it, the article's clock: 28\.04× \(send time 21,310 \/ 760 ms\) \[MongoDB writes: w:0/ },
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
    [HOLDS]: { records: saves(6190, 2900), measured: /^2\.13× \(applied time 6,190 \/ 2,900 ms\); beside it, the article's clock: 1\.00× \(send time 100 \/ 100 ms\) \[MongoDB writes: w:0; save: an upsert by _id: UPDATE <- EXPRESS.*1\.13x\)\]$/ },
    [FAILS]: { records: saves(3000, 2900, 500) },
    [INCONCLUSIVE]: { records: saves(3800, 2900) },
    [UNTESTABLE]: { records: saves(null, 2900) },
  },
};

const tooSmall = [];

/**
 * A fast server's w:0 saves: sent in a tenth of the SQL baseline's time (the shell's loop, which
 * the article's clock times), applied in nearly all of it: the claim, about the stores, does not
 * hold. [finding, records, the verdict on the applied time, a pattern].
 */
const sendClockOnly = [
  ['mongo-beats-sql-test1', sql('test1', 1000, 950, 100), FAILS, /^1\.05× \(applied time 1,000 \/ 950 ms\); beside it, the article's clock: 10\.00× \(send time 1,000 \/ 100 ms\)/],
  ['mongo-beats-sql-test2', sql('test2', 2000, 1900, 200), FAILS, /^1\.05× \(applied time 2,000 \/ 1,900 ms\); beside it, the article's clock: 10\.00×/],
];

module.exports = { cases, tooSmall, sendClockOnly, sql };
