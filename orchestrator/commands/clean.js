'use strict';
// `orchestrate clean`: what runs of the kit that were killed left behind (servers still serving,
// temporary folders, mounts), reaped now as the next run would, one line per run; runs still
// alive are named and left alone.
const { reapDeadRuns, listRuns, describeRun } = require('../run-state');

function cleanCommand({ config, log }) {
  const lines = reapDeadRuns(config.stateDir);
  lines.forEach((line) => log(line));
  const alive = listRuns(config.stateDir).filter((r) => r.alive && r.state.kit.pid !== process.pid);
  alive.forEach(({ state }) => log(`${describeRun(state)} is still running: left alone`));
  if (!lines.length && !alive.length) log('nothing to clean: no run of the kit left anything behind');
  return 0;
}

function register(program, { config, log, setResult }) {
  program.command('clean')
    .description('stop the servers and remove the folders that killed runs of the kit left behind (the next run does it too)')
    .action(() => setResult(cleanCommand({ config, log })));
}

module.exports = { register, cleanCommand };
