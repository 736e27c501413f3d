'use strict';
// `orchestrate serve [SPEC]`: starts one server and keeps it until Ctrl-C, so a user can paste
// the scripts into mongosh against it.
const path = require('node:path');
const { UsageError } = require('../errors');
const { parseServerSpecs } = require('../servers/spec');
const { discoverScenarios } = require('../scenarios');
const { installSignalHandlers } = require('../processes');
const { createProgress } = require('../run/progress');
const { makeOutDir, timestamp } = require('./out-dir');

/** A first thing to try on the server: the first scenario's first script at its smoke size. */
function pasteHint(uri, config) {
  const [scenario] = discoverScenarios(config.shellDir);
  if (!scenario) return null;
  const [step] = scenario.steps;
  const vars = (step.params || []).map((p) => `var ${p}=${scenario.sizes.smoke[p]}`).join('; ');
  return `try: npx mongosh ${uri} --eval '${vars}' --file ${path.relative(process.cwd(), scenario.scriptPath(step))}`;
}

function register(program, { config, log, setResult }) {
  program.command('serve [spec]')
    .description('start one server (default: embedded) and keep it until Ctrl-C, to paste the scripts into mongosh')
    .option('--out <dir>', 'folder for the server\'s log, kept after it stops (default: reports/runs/serve-<timestamp>)')
    .action(async (specText, opts) => {
      const { startServer } = require('../servers/start');
      const [spec] = parseServerSpecs([specText || 'embedded']);
      if (spec.kind === 'uri') throw new UsageError('serve starts a server: give embedded, mongod, mongod@VERSION, ferretdb, ferretdb-pg or ferretdb2');
      // the server's log outlives it, so an error that points at it points at a file that is there
      const logDir = makeOutDir(path.join(opts.out ? path.resolve(opts.out) : path.join(config.runsDir, `serve-${timestamp()}`), 'logs'));
      const stopped = new Promise((resolve) => { installSignalHandlers(resolve); });
      // a mongod that must be downloaded first shows the download on stderr
      const server = await startServer(spec, { config, logDir, log, progress: createProgress() });
      log(`${spec.name}: ${server.description} at ${server.uri} (its log: ${path.relative(process.cwd(), logDir)})`);
      const hint = pasteHint(server.uri, config);
      if (hint) log(hint);
      log('Ctrl-C stops it and removes its data.');
      await stopped;
      setResult(0);
    });
}

module.exports = { register };
