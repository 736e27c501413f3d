'use strict';
// The report's "Sizes and time" section: per scenario and server the size it ran at, how much of
// the article that is, and with --size auto the time predicted beside the time its steps took
// (the sum of their scriptMs), with the model that predicted it and what the size could not decide.
const { sizeText, percent, seconds, tooSmallLines, shortSpanLines } = require('../sizing/describe');
const { formatDuration } = require('../sizing/duration');
const { fractionOf } = require('../sizing/planner');
const { toMarkdown } = require('./tables');
const { markdownText: md } = require('./escape');

/** The size a run ran at, in one phrase for its header. */
function runSizeText(params) {
  if (params.size !== 'auto') return `size **${md(params.size)}**`;
  return `size **auto**: each scenario at the largest part of its article predicted to fit a budget of ${formatDuration(params.budgetSeconds)} per server${params.sizePerServer ? ', each server its own (--size-per-server)' : ', one size for every server (the largest that fits on each)'}`;
}

/**
 * The section from the run's sizes (rows: the run model's, one per scenario and server that has
 * a size record or ran steps: { scenario, server, record, sizes, actual }).
 */
function sizesSection(runData, rows) {
  if (!rows.length) return '';
  const auto = runData.run.params.size === 'auto';
  const repeated = rows.some((r) => r.actual?.runs > 1);
  const header = ['scenario', 'server', 'size', 'of the article', ...(auto ? ['predicted', 'actual', 'actual / predicted'] : ['actual'])];
  const body = rows.map((r) => {
    const actualS = r.actual ? r.actual.ms / 1000 : null;
    const cells = [r.scenario.name, r.server, r.sizes ? sizeText(r.scenario, r.sizes) : '–', percent(r.record?.fraction ?? (r.sizes ? fractionOf(r.scenario, r.sizes) : null))];
    if (!auto) return [...cells, seconds(actualS)];
    const predicted = r.record?.predictedSeconds;
    return [...cells, predicted === undefined || predicted === null ? '–' : `${seconds(predicted)}${r.record.fits === false ? ' (over budget)' : ''}`,
      seconds(actualS), predicted && actualS !== null ? `×${(actualS / predicted).toFixed(2)}` : '–'];
  });
  const intro = auto
    ? `Each scenario ran at the largest part of its article that its probes (its own steps, timed at a few small sizes on the server) predicted to fit ${formatDuration(runData.run.params.budgetSeconds)}; *actual* is the time its steps took (their scripts, stats reads aside)${repeated ? ', per run where --repeat ran it several times' : ''}. Timings on a machine shared with other work are noisy.`
    : `The ${md(runData.run.params.size)} size, as each scenario lists it; *actual* is the time its steps took (their scripts, stats reads aside)${repeated ? ', per run' : ''}.`;
  const parts = [intro, toMarkdown({ header, rows: body })];
  const notes = rows.flatMap((r) => (r.record ? [...tooSmallLines(r.record), ...shortSpanLines(r.record)].map((l) => `- ${r.scenario.name} on ${md(r.server)}: ${md(l)}`) : []));
  if (notes.length) parts.push(`What these sizes could not decide:\n${[...new Set(notes)].join('\n')}`);
  const models = rows.filter((r) => r.record?.model?.text).map((r) => `- ${r.scenario.name} on ${md(r.server)}: ${md(r.record.model.text)} (from ${md(r.record.model.probes?.length)} probe${r.record.model.probes?.length === 1 ? '' : 's'})`);
  if (models.length) parts.push(`The models that predicted them (each step's time per run: a fixed part, a cost per operation, and where declared a cost that grows with the size):\n${models.join('\n')}`);
  return parts.join('\n\n');
}

module.exports = { sizesSection, runSizeText };
