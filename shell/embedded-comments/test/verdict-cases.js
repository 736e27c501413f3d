'use strict';
// Crafted measurements for each finding of embedded-comments, one set per outcome it can come to (holds,
// does not hold, inconclusive, cannot be tested here): test/unit/verdicts.test.js runs every
// scenario's cases through the same path a report takes.
const fs = require('node:fs');
const path = require('node:path');
const { HOLDS, FAILS, INCONCLUSIVE, UNTESTABLE } = require('../../../orchestrator/report/verdicts');

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
      ...r, seconds: sent && r.mode === 'unsafe' ? sent(r) : applied, appliedSeconds: applied, unacknowledged: { outcome, reason: 'probe' },
      writeConcern: r.mode === 'safe' || outcome === 'honoured' ? `w:${r.mode === 'safe' ? 1 : 0}` : 'w:1',
    };
  });
}
const times = (k) => (x) => x * k;
const unsafeSeparate = (name) => publishedData().records
  .find((r) => r.mode === 'unsafe' && r.layout === 'separate' && `${r.layout} ${r.perBlog}` === name.replace('embedded', 'separate')).seconds;
const asSeparate = (cell, k) => ({ [cell]: () => unsafeSeparate(cell) * k });
const allSafe = (k) => Object.fromEntries(['embedded', 'separate'].flatMap((l) => [1, 10, 100, 1000, 10000].map((n) => [`${l} ${n}`, times(k)])));

/** finding → outcome → { records, server? (the verdict's, default the records' own), sizes? (the run's, default the article's), measured? (a pattern its text must match) } */
const cases = {
  'embedded-slows': {
    [HOLDS]: { records: ec(), measured: /^24\.92× \(applied time\) at 10000 perBlog/ },
    [FAILS]: { records: ec({ safe: { 'embedded 1000': () => 4.4, 'embedded 10000': () => 4.4 } }) },
    [INCONCLUSIVE]: { records: ec({ safe: { 'embedded 1000': () => 6, 'embedded 10000': () => 8 } }) },
    [UNTESTABLE]: { records: ec({ upTo: 100 }), sizes: { TOTAL: 100, COMMENT_LEN: 1000 }, measured: /TOTAL 100, it needs 1,000/ },
  },
  'unsafe-as-fast-up-to-100': {
    [HOLDS]: { records: ec(), measured: /^1\.09× at 10 perBlog \(applied time 1\.425 \/ 1\.302 s\), 1\.03× at 100 perBlog.*unsafe table's writes: w:0/ },
    [FAILS]: { records: ec({ unsafe: asSeparate('embedded 100', 1.8) }) },
    [INCONCLUSIVE]: { records: ec({ unsafe: asSeparate('embedded 10', 1.35) }) },
    [UNTESTABLE]: { records: ec({ outcome: 'refused' }), measured: /answers fire-and-forget.*measured instead/ },
  },
  'unsafe-26x-at-10000': {
    [HOLDS]: { records: ec(), measured: /27\.65×/ },
    [FAILS]: { records: ec({ unsafe: asSeparate('embedded 10000', 2) }) },
    [INCONCLUSIVE]: { records: ec({ unsafe: asSeparate('embedded 10000', 6) }) },
    [UNTESTABLE]: { records: ec({ outcome: 'refused' }), measured: /answers fire-and-forget/ },
  },
  'safe-3x-slower': {
    [HOLDS]: { records: ec(), measured: /2\.98×/ },
    [FAILS]: { records: ec({ safe: allSafe(1 / 2.98 * 1.1) }) },
    [INCONCLUSIVE]: { records: ec({ safe: allSafe(1 / 2.98 * 1.6) }) },
    [UNTESTABLE]: { records: ec({ outcome: 'refused' }), measured: /can only agree|acknowledged/ },
  },
};

// a fast server's unacknowledged cells: every one sent in 0.5 s (the shell's loop, alike for
// both layouts), applied in the time the server took
const fastSend = () => 0.5;

/**
 * The findings decided on the applied time, on a fast server whose w:0 send time times the shell
 * alone: [finding, records, the verdict on the applied time, a pattern]. On the send time each
 * would come out otherwise (every cell 1.00× its neighbour; the safe table 30× the unsafe one).
 */
const sendClockOnly = [
  ['unsafe-as-fast-up-to-100', ec({ sent: fastSend, unsafe: asSeparate('embedded 100', 1.8) }), FAILS,
    /^1\.09× at 10 perBlog \(applied time 1\.425 \/ 1\.302 s\), 1\.80× at 100 perBlog \(applied time [\d.]+ \/ 1\.3 s\); beside it, the article's clock: 1\.00× at 10 perBlog \(send time 0\.5 \/ 0\.5 s\), 1\.00× at 100 perBlog/],
  ['unsafe-26x-at-10000', ec({ sent: fastSend }), HOLDS, /^27\.65× \(applied time 35\.731 \/ 1\.292 s\); beside it, the article's clock: 1\.00× \(send time 0\.5 \/ 0\.5 s\)/],
  ['safe-3x-slower', ec({ sent: fastSend, safe: allSafe(1 / 2.98 * 1.1) }), FAILS, /^1\.10× \(applied time summed 56\.87 \/ 51\.67 s\); beside it, the article's clock: 11\.37× \(send time summed 56\.87 \/ 5 s\)/],
];

/** Findings the size leaves untested where the feature is there: [finding, records, pattern, { server (default the records'), sizes (default the article's) }]. */
const tooSmall = [
  ['unsafe-26x-at-10000', ec({ upTo: 1000 }), /too small: TOTAL 1,000, it needs 10,000 \(the article measured this at 10,000/, { sizes: { TOTAL: 1000, COMMENT_LEN: 1000 } }],
];

module.exports = { cases, tooSmall, sendClockOnly, ec };
