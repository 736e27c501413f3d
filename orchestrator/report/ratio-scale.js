'use strict';
// The one scale every matrix cell draws on (report.html's inline SVG and verdicts.png alike): a
// log scale of ratios from 1/100× to 100×, 1× in the middle, with the rule's bands, the measured
// ratio (a dot) and the article's (a diamond). One scale for all cells, so cells compare by eye.
const LO = 0.01;
const HI = 100;

/** Where a ratio sits on the bar, 0 to 1 (clamped at the ends). */
function position(ratio) {
  if (!Number.isFinite(ratio) || ratio <= 0) return null;
  const x = (Math.log10(ratio) - Math.log10(LO)) / (Math.log10(HI) - Math.log10(LO));
  return Math.min(1, Math.max(0, x));
}

/** The bands as stretches of the bar: [{ x0, x1, status }]. */
function bandStretches(bands) {
  return (bands || []).map((b) => ({ x0: position(Math.max(b.from, LO)), x1: position(Math.min(b.to, HI)), status: b.status }))
    .filter((b) => b.x0 !== null && b.x1 !== null && b.x1 > b.x0);
}

/**
 * Colours per verdict: the cell's fill, its ink (the verdict word) and the band's tint on the bar.
 * Seven kinds a reader tells apart in colour and in grey (holds, weaker between holds and
 * inconclusive; needs a larger size a blue apart from the greys of what cannot be tested).
 */
const COLOURS = {
  holds: { fill: '#cfead6', ink: '#0f5c2a', band: '#7cc68f' },
  'holds, weaker': { fill: '#e6efc2', ink: '#4a5a0c', band: '#bcd36a' },
  'does not hold': { fill: '#f7cfca', ink: '#9b1c12', band: '#e8877c' },
  inconclusive: { fill: '#fde5b8', ink: '#7a4a00', band: '#f4c15e' },
  'needs a larger size': { fill: '#d9e5f4', ink: '#1f4670', band: '#9dbbe2' },
  'cannot be tested here': { fill: '#e4e4e4', ink: '#3d3d3d', band: '#bdbdbd' },
  'published only': { fill: '#e5def0', ink: '#47366b', band: '#b9a8d6' },
  'not run': { fill: '#ffffff', ink: '#8a8a8a', band: '#dddddd' },
};

module.exports = { position, bandStretches, COLOURS, LO, HI };
