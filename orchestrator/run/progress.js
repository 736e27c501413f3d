'use strict';
// Progress on long steps: a bar on a terminal (cli-progress), one line per finished step elsewhere
// (CI logs, pipes), always on stderr so stdout stays the kit's own lines. Once stopped (the run's
// end, or a signal) it prints nothing more: a step still winding down after a Ctrl-C is not shown
// as done, since what it measured is no longer written.
const cliProgress = require('cli-progress');

function formatSeconds(ms) {
  return ms < 10000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms / 1000)} s`;
}

function createProgress({ stream = process.stderr, interactive = Boolean(process.stderr.isTTY) } = {}) {
  let bar = null;
  let label = '';
  let started = 0;
  let stopped = false;
  return {
    /** unit: what value and total count (ops; MB for a download). */
    startStep(stepLabel, total = 1, { unit = 'ops' } = {}) {
      if (stopped) return;
      label = stepLabel;
      started = Date.now();
      if (!interactive) return;
      bar = new cliProgress.SingleBar({
        stream,
        format: '{label} |{bar}| {percentage}% {value}/{total} {unit} {duration_formatted}',
        hideCursor: true,
        clearOnComplete: true,
      }, cliProgress.Presets.shades_classic);
      bar.start(total, 0, { label, unit });
    },
    update(done, total) {
      if (!bar) return;
      if (total !== undefined && total !== bar.getTotal()) bar.setTotal(total);
      bar.update(done);
    },
    endStep(outcome = 'done') {
      if (stopped) return;
      if (bar) { bar.stop(); bar = null; }
      stream.write(`${label} · ${outcome} in ${formatSeconds(Date.now() - started)}\n`);
    },
    stop() {
      stopped = true;
      if (bar) { bar.stop(); bar = null; }
    },
  };
}

module.exports = { createProgress, formatSeconds };
