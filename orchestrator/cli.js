'use strict';
// The orchestrate command: a commander program whose commands each live in commands/;
// bin/orchestrate.js calls main(argv). Errors are one line; DEBUG=classics:* adds the stack.
const { Command, CommanderError } = require('commander');
const { resolveConfig } = require('./config');
const { ClassicsError } = require('./errors');
const { cleanupAll } = require('./processes');
const run = require('./commands/run');
const report = require('./commands/report');
const compare = require('./commands/compare');
const figures = require('./commands/figures');
const serve = require('./commands/serve');
const list = require('./commands/list');
const config = require('./commands/config');
const clean = require('./commands/clean');
const history = require('./commands/history');

const COMMANDS = [run, report, compare, history, figures, serve, list, config, clean];

function buildProgram(ctx) {
  const program = new Command('orchestrate')
    .description('Replays classic MongoDB benchmark articles on today\'s servers, beside the published numbers.')
    .version(require('../package.json').version)
    .exitOverride();
  for (const command of COMMANDS) command.register(program, ctx);
  return program;
}

/** Runs the CLI; resolves to the exit code. */
async function main(argv, { env = process.env, log = (line) => process.stdout.write(`${line}\n`) } = {}) {
  // `orchestrate list | head` closes the pipe early: that is not an error
  process.stdout.on('error', (err) => { if (err.code === 'EPIPE') process.exit(0); });
  let result = 0;
  const debugOn = /classics/.test(env.DEBUG || '');
  try {
    const program = buildProgram({ config: resolveConfig(env), log, setResult: (code) => { result = code; } });
    await program.parseAsync(argv);
    return result;
  } catch (err) {
    if (err instanceof CommanderError) {
      // commander has printed its message already
      return ['commander.helpDisplayed', 'commander.version', 'commander.help'].includes(err.code) ? 0 : 2;
    }
    const known = err instanceof ClassicsError;
    process.stderr.write(known ? `${err.name}: ${err.message}\n` : `error: ${err.message}\n`);
    if (debugOn) process.stderr.write(`${err.stack}\n`);
    else if (!known) process.stderr.write('(set DEBUG=classics:* for the stack)\n');
    await cleanupAll();
    return known ? err.exitCode : 1;
  }
}

module.exports = { main };
