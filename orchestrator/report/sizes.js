'use strict';
// The report's "Sizes and time" section: per scenario and server the size it ran at, how much of
// the article that is, and with --size auto the time predicted beside the time its steps took
// (the sum of their scriptMs), with the model that predicted it and what the size could not decide.
const { sizeText, percent, seconds, tooSmallLines, shortSpanLines } = require('../sizing/describe');
const { formatDuration } = require('../sizing/duration');
const { fractionOf } = require('../sizing/planner');
const { inlineMarkdown } = require('./blocks');

/** The size a run ran at, in one phrase for its header, as inline parts (blocks.js). */
function runSizeParts(params) {
  if (params.size !== 'auto') return [{ say: 'size ' }, { strong: [params.size] }];
  return [{ say: 'size ' }, { strong: { say: 'auto' } }, { say: `: each scenario at the largest part of its article predicted to fit a budget of ${formatDuration(params.budgetSeconds)} per server${params.sizePerServer ? ', each server its own (--size-per-server)' : ', one size for every server (the largest that fits on each)'}` }];
}

/** The same in markdown. */
const runSizeText = (params) => inlineMarkdown(runSizeParts(params));

/**
 * The section from the run's sizes (rows: the run model's, one per scenario and server that has
 * a size record or ran steps: { scenario, server, record, sizes, actual }), as blocks (blocks.js).
 */
function sizesSection(runData, rows) {
  if (!rows.length) return [];
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
  const actual = [{ em: 'actual' }, { say: ` is the time its steps took (their scripts, stats reads aside)${repeated ? (auto ? ', per run where --repeat ran it several times' : ', per run') : ''}` }];
  const intro = auto
    ? [{ say: `Each scenario ran at the largest part of its article that its probes (its own steps, timed at a few small sizes on the server) predicted to fit ${formatDuration(runData.run.params.budgetSeconds)}; ` }, ...actual, { say: '. Timings on a machine shared with other work are noisy.' }]
    : [{ say: 'The ' }, runData.run.params.size, { say: ' size, as each scenario lists it; ' }, ...actual, { say: '.' }];
  const blocks = [{ lines: [intro] }, { table: { header, rows: body } }];
  // a line said once however many servers it holds for
  const notes = new Map(rows.flatMap((r) => (r.record ? [...tooSmallLines(r.record), ...shortSpanLines(r.record)].map((l) => [{ say: `${r.scenario.name} on ` }, r.server, { say: ': ' }, l]) : []))
    .map((parts) => [inlineMarkdown(parts), parts]));
  if (notes.size) blocks.push({ lead: { say: 'What these sizes could not decide:' }, list: [...notes.values()] });
  const models = rows.filter((r) => r.record?.model?.text).map((r) => [{ say: `${r.scenario.name} on ` }, r.server, { say: ': ' }, r.record.model.text, { say: ' (from ' }, String(r.record.model.probes?.length ?? ''), { say: ` probe${r.record.model.probes?.length === 1 ? '' : 's'})` }]);
  if (models.length) blocks.push({ lead: { say: 'The models that predicted them (each step\'s time per run: a fixed part, a cost per operation, and where declared a cost that grows with the size):' }, list: models });
  return blocks;
}

module.exports = { sizesSection, runSizeText, runSizeParts };
