'use strict';
// Crafted measurements for each finding of many-keys, one set per outcome it can come to (holds,
// does not hold, inconclusive, cannot be tested here): test/unit/verdicts.test.js runs every
// scenario's cases through the same path a report takes.
const fs = require('node:fs');
const path = require('node:path');
const { HOLDS, FAILS, INCONCLUSIVE, UNTESTABLE } = require('../../../orchestrator/report/verdicts');

const publishedData = () => JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'published.json'), 'utf8'));

// the updates' applied times (original, bucket); sent: both send times, where the test gives them
const mk = (original, bucket, keys = 20000, sent = null) => [
  { kind: 'update', schema: 'original', appliedSeconds: original, ...(sent ? { seconds: sent[0] } : {}), keys, writeConcern: 'w:0', plan: 'UPDATE <- IXSCAN identity; 1 keys and 1 documents examined' },
  { kind: 'update', schema: 'bucket', appliedSeconds: bucket, ...(sent ? { seconds: sent[1] } : {}), keys, writeConcern: 'w:0', plan: 'UPDATE <- IXSCAN identity; 1 keys and 1 documents examined' },
];

/** finding → outcome → { records, server? (the verdict's, default the records' own), sizes? (the run's, default the article's), measured? (a pattern its text must match) } */
const cases = {
  'buckets-faster': {
    [HOLDS]: { records: mk(18.35, 1.47), measured: /^12\.48× \(applied time 18\.35 \/ 1\.47 s\) \[writes: w:0; the update's plan: UPDATE <- IXSCAN/ },
    [FAILS]: { records: mk(1.05, 1) },
    [INCONCLUSIVE]: { records: mk(2, 1) },
    [UNTESTABLE]: { records: mk(18.35, 1.47, 2000), sizes: { DOCS: 2000, BUCKET_DOCS: 2000, KEYS: 2000, UPDATES: 10000 }, measured: /KEYS 2,000, it needs 20,000 \(the effect comes from walking 20,000 keys/ },
  },
};

const tooSmall = [];

/**
 * A fast server's w:0 updates: sent in 0.5 s whatever the schema (the shell's loop), applied in
 * the times the server took. [finding, records, the verdict on the applied time, a pattern].
 */
const sendClockOnly = [
  ['buckets-faster', mk(18.35, 1.47, 20000, [0.5, 0.5]), HOLDS, /^12\.48× \(applied time 18\.35 \/ 1\.47 s\); beside it, the article's clock: 1\.00× \(send time 0\.5 \/ 0\.5 s\)/],
];

module.exports = { cases, tooSmall, sendClockOnly, mk };
