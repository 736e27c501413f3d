'use strict';
// summary.md's appendix table of every verdict as the analysis made it: one row per finding and
// server, its status, its ratio with the 95% interval and the pairs it rests on, the clock it was
// decided on, the article's figure and why. A view of the verdicts' fields, as verdicts.json is.
const { markdownText } = require('./format');
const { estimateText, detailText, reasonText, ratioText } = require('../analysis/verdict-words');

/** The verdicts as a markdown table; findingOf(verdict) gives the finding a verdict is of. */
function verdictsMarkdown(verdicts, findingOf) {
  if (!verdicts.length) return '';
  // the kit's own words in italics, the claim's escaped: it is the article's text
  const claim = (f) => (f?.source === 'kit' ? `*the kit's question, not the article's:* ${markdownText(f.claim)}` : markdownText(f?.claim ?? ''));
  const rows = verdicts.map((v) => {
    const f = findingOf(v);
    const why = [...new Set([reasonText(v), detailText(v, f)].filter(Boolean))].join(' · ');
    return `| ${markdownText(v.scenario)} | ${claim(f)} | ${markdownText(v.server)} | **${v.status}** | ${v.crossing ? '–' : markdownText(estimateText(v))} | ${markdownText(v.clock ?? '–')} | ${Number.isFinite(v.articleRatio) ? ratioText(v.articleRatio) : '–'} | ${markdownText(why)} |`;
  });
  return [
    '| scenario | finding | server | verdict | ratio (95% interval, pairs) | clock | article | why, and what was measured |',
    '|---|---|---|---|---:|---|---:|---|',
    ...rows,
  ].join('\n');
}

module.exports = { verdictsMarkdown };
