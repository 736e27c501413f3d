'use strict';
// The appendix's table of every verdict as the analysis made it (summary.md keeps it): one row per
// finding and server, its status, its ratio with the 95% interval and the pairs it rests on, the
// clock it was decided on, the article's figure and why. A view of the verdicts' fields, as
// verdicts.json is; a block (blocks.js).
const { estimateText, detailText, ratioText } = require('../analysis/verdict-words');
const { reasonWords } = require('../analysis/reasons');

/** The verdicts as a table block, or null; findingOf(verdict) gives the finding a verdict is of. */
function verdictsTable(verdicts, findingOf) {
  if (!verdicts.length) return null;
  // the kit's own words in italics, the claim as text: it is the article's
  const claim = (f) => (f?.source === 'kit' ? [{ em: 'the kit\'s question, not the article\'s:' }, { say: ' ' }, f.claim] : [f?.claim ?? '']);
  const rows = verdicts.map((v) => {
    const f = findingOf(v);
    const why = [...new Set([reasonWords(v.reasons), detailText(v, f)].filter(Boolean))].join(' · ');
    return [v.scenario, claim(f), v.server, [{ strong: { say: v.status } }], v.crossing ? '–' : estimateText(v), v.clock ?? '–', { say: Number.isFinite(v.articleRatio) ? ratioText(v.articleRatio) : '–' }, why];
  });
  const header = ['scenario', 'finding', 'server', 'verdict', 'ratio (95% interval, pairs)', 'clock', 'article', 'why, and what was measured'];
  return { table: { header, rows }, align: ['left', 'left', 'left', 'left', 'right', 'left', 'right', 'left'] };
}

module.exports = { verdictsTable };
