'use strict';
// Crafted measurements for each finding of many-keys, one set per outcome it can come to (holds,
// does not hold, inconclusive, cannot be tested here): test/unit/verdicts.test.js cuts each into
// paired rounds (test/helpers/blocks.js) and runs them through the analysis a report takes. The
// article's 12.49× holds at its order, the square root of it (3.53×) or more; a smaller effect past
// no effect (1.1×) holds, weaker.
const { HOLDS, WEAKER, FAILS, INCONCLUSIVE, NEEDS_SIZE } = require('../../../orchestrator/analysis/rules');

// the updates' applied times (original, bucket); sent: both send times, where the test gives them
const mk = (original, bucket, keys = 20000, sent = null) => [
  { step: 'update', kind: 'update', schema: 'original', updates: 10000, appliedSeconds: original, ...(sent ? { seconds: sent[0] } : {}), keys, writeConcern: 'w:0', plan: 'UPDATE <- IXSCAN identity; 1 keys and 1 documents examined' },
  { step: 'update', kind: 'update', schema: 'bucket', updates: 10000, appliedSeconds: bucket, ...(sent ? { seconds: sent[1] } : {}), keys, writeConcern: 'w:0', plan: 'UPDATE <- IXSCAN identity; 1 keys and 1 documents examined' },
];

/** The count fields a block holds its share of. */
const counts = ['updates'];

/**
 * finding → outcome → { records, server? (the verdict's, default the records' own), sizes? (the
 * run's, default the article's), expect? ({ ratio: the figure, ±2%; reasons: codes it carries }) }
 */
const cases = {
  'buckets-faster': {
    [HOLDS]: { records: mk(18.35, 1.47), expect: { ratio: 12.48, context: ['writes', 'the update\'s plan'] } },
    [FAILS]: { records: mk(1.05, 1) },
    [WEAKER]: { records: mk(2, 1), expect: { reasons: ['weaker'] } },
    [INCONCLUSIVE]: { records: mk(3.5, 1), expect: { reasons: ['straddles'] } },
    [NEEDS_SIZE]: { records: mk(18.35, 1.47, 2000), sizes: { DOCS: 2000, BUCKET_DOCS: 2000, KEYS: 2000, UPDATES: 10000 }, expect: { reasons: ['size-too-small'], ratio: 12.48 } },
  },
};

const tooSmall = [];

/**
 * A fast server's w:0 updates: sent in 4 s whatever the schema (the shell's loop), applied in the
 * times the server took: [finding, records, the verdict on the applied time].
 */
const sendClockOnly = [
  ['buckets-faster', mk(18.35, 1.47, 20000, [4, 4]), HOLDS],
];

module.exports = { cases, tooSmall, sendClockOnly, counts, mk };
