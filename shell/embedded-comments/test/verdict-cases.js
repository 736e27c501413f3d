'use strict';
// Crafted measurements for each finding of embedded-comments, one set per outcome it can come to (holds,
// does not hold, inconclusive, cannot be tested here): test/unit/verdicts.test.js cuts each into
// paired rounds (test/helpers/blocks.js) and runs them through the analysis a report takes.
const fs = require('node:fs');
const path = require('node:path');
const { HOLDS, WEAKER, FAILS, INCONCLUSIVE, NEEDS_SIZE, UNTESTABLE } = require('../../../orchestrator/analysis/rules');

const publishedData = () => JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'published.json'), 'utf8'));

/**
 * The article's table as a run's cells: each cell applied in the article's seconds (changed where
 * unsafe or safe say, by cell), and sent in the same time unless sent gives the send time of the
 * unsafe table's cells (w:0: the shell's own loop on a fast server).
 */
function ec({ outcome = 'honoured', upTo = 10000, unsafe = {}, safe = {}, sent = null } = {}) {
  const published = publishedData().records;
  const changed = { unsafe, safe };
  return published.filter((r) => r.perBlog <= upTo).map((r) => {
    const f = changed[r.mode][`${r.layout} ${r.perBlog}`];
    const applied = f ? f(r.seconds) : r.seconds;
    return {
      ...r, step: 'bench', comments: 10000, seconds: sent && r.mode === 'unsafe' ? sent(r) : applied, appliedSeconds: applied, unacknowledged: { outcome, reason: 'probe' },
      writeConcern: r.mode === 'safe' || outcome === 'honoured' ? `w:${r.mode === 'safe' ? 1 : 0}` : 'w:1',
    };
  });
}
const times = (k) => (x) => x * k;
const unsafeSeparate = (name) => publishedData().records
  .find((r) => r.mode === 'unsafe' && r.layout === 'separate' && `${r.layout} ${r.perBlog}` === name.replace('embedded', 'separate')).seconds;
const asSeparate = (cell, k) => ({ [cell]: () => unsafeSeparate(cell) * k });
const allSafe = (k) => Object.fromEntries(['embedded', 'separate'].flatMap((l) => [1, 10, 100, 1000, 10000].map((n) => [`${l} ${n}`, times(k)])));

/** The count fields a block holds its share of. */
const counts = ['comments'];

/** finding → outcome → { records, server?, sizes?, expect? ({ ratio ±2%, at, reasons: codes }) } */
const cases = {
  'embedded-slows': {
    [HOLDS]: { records: ec(), expect: { ratio: 24.92, at: 10000 } },
    [FAILS]: { records: ec({ safe: { 'embedded 1000': () => 4.4, 'embedded 10000': () => 4.4 } }) },
    // at 10,000 per blog the article's 24.9× holds at its order, 4.99× (its square root)
    [WEAKER]: { records: ec({ safe: { 'embedded 1000': () => 6, 'embedded 10000': () => 8 } }), expect: { reasons: ['weaker'] } },
    [INCONCLUSIVE]: { records: ec({ safe: { 'embedded 1000': () => 6, 'embedded 10000': () => 21.4 } }), expect: { reasons: ['straddles'] } },
    [NEEDS_SIZE]: { records: ec({ upTo: 100 }), sizes: { TOTAL: 100, COMMENT_LEN: 1000 }, expect: { reasons: ['size-too-small'] } },
  },
  'unsafe-as-fast-up-to-100': {
    [HOLDS]: { records: ec(), expect: { ratio: 1.09, at: 10, context: ['unsafe table\'s writes'] } },
    [FAILS]: { records: ec({ unsafe: asSeparate('embedded 100', 1.8) }), expect: { at: 100 } },
    [INCONCLUSIVE]: { records: ec({ unsafe: asSeparate('embedded 10', 1.25) }), expect: { reasons: ['straddles'] } },
    [UNTESTABLE]: { records: ec({ outcome: 'refused' }), expect: { reasons: ['requirement-unmet'], ratio: 1.09 } },
  },
  'unsafe-26x-at-10000': {
    [HOLDS]: { records: ec(), expect: { ratio: 27.65 } },
    [FAILS]: { records: ec({ unsafe: asSeparate('embedded 10000', 1.05) }) },
    [WEAKER]: { records: ec({ unsafe: asSeparate('embedded 10000', 2) }) },
    [INCONCLUSIVE]: { records: ec({ unsafe: asSeparate('embedded 10000', 5.26) }) },
    [UNTESTABLE]: { records: ec({ outcome: 'refused' }), expect: { reasons: ['requirement-unmet'] } },
  },
  'safe-3x-slower': {
    [HOLDS]: { records: ec(), expect: { ratio: 2.98 } },
    // "about 3": a band from 2.38× to 3.73×; a larger effect past it does not hold either
    [FAILS]: { records: ec({ safe: allSafe(1 / 2.98 * 1.02) }) },
    [WEAKER]: { records: ec({ safe: allSafe(1 / 2.98 * 1.6) }), expect: { reasons: ['weaker'] } },
    [INCONCLUSIVE]: { records: ec({ safe: allSafe(1 / 2.98 * 2.38) }), expect: { reasons: ['straddles'] } },
    [UNTESTABLE]: { records: ec({ outcome: 'refused' }), expect: { reasons: ['requirement-unmet'] } },
  },
};

// a fast server's unacknowledged cells: every one sent in 0.5 s (the shell's loop, alike for
// both layouts), applied in the time the server took
const fastSend = () => 0.5;

/**
 * The findings decided on the applied time, on a fast server whose w:0 send time times the shell
 * alone: [finding, records, the verdict on the applied time]. On the send time each would come
 * out otherwise (every cell 1.00× its neighbour; the safe table 30× the unsafe one).
 */
const sendClockOnly = [
  ['unsafe-as-fast-up-to-100', ec({ sent: fastSend, unsafe: asSeparate('embedded 100', 1.8) }), FAILS],
  ['unsafe-26x-at-10000', ec({ sent: fastSend }), HOLDS],
  ['safe-3x-slower', ec({ sent: fastSend, safe: allSafe(1 / 2.98 * 1.6) }), WEAKER],
];

/** Findings the size leaves untested where the feature is there: [finding, records, reason codes, { server, sizes }]. */
const tooSmall = [
  ['unsafe-26x-at-10000', ec({ upTo: 1000 }), ['size-too-small'], { sizes: { TOTAL: 1000, COMMENT_LEN: 1000 }, status: NEEDS_SIZE }],
];

/** A larger effect than "about 3": past the band's top it does not hold, and says so. */
const aboveBand = ['safe-3x-slower', ec({ safe: allSafe(1 / 2.98 * 5) }), 'above-band'];

module.exports = { cases, tooSmall, sendClockOnly, counts, ec, aboveBand };
