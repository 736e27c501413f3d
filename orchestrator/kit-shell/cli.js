'use strict';
// The kit's shell: runs mongosh scripts unchanged, with mongosh's semantics, at close to the
// bare driver's cost. It takes the arguments the kit gives mongosh:
//   node orchestrator/kit-shell/bin.js --nodb --quiet --norc --eval CODE ... --file FILE ...
// (a connection string and *.js files as plain arguments work too), runs every --eval, writes
// the last one's value as mongosh does, then runs every file, all in one context; then closes
// its connections. Exit status: 0, the code given to quit()/exit(), or 1 after an uncaught
// error, printed on stderr as `Name: message` (with its stack when
// MONGOSH_DISPLAY_STARTUP_STACK_TRACE is set, as in mongosh). A script that calls something this
// shell lacks stops with `KitShellUnsupported: <Class.method> is not in the kit's shell; run
// this script with --shell mongosh`. Where the kit names a file in CLASSICS_KIT_SHELL_CALLS, the
// shell writes there, as it ends, which path (lean or driver) took each method's calls.
const fs = require('node:fs');
const { createShell } = require('./api/shell');
const { usage } = require('./api/lean');
const { KIT_SHELL_CALLS_VARIABLE } = require('../config');
const { openMongo } = require('./api/mongo');
const { KitShellUnsupported } = require('./api/errors');
const { createScriptContext } = require('./context');
const { ScriptEvaluator } = require('./evaluator');
const { ScriptRewriter, defaultCacheDir } = require('./rewrite');

// mongosh flags the kit passes, which change nothing here: no greeting, no rc file, no
// connection before the script's own (the kit connects from --eval)
const ACCEPTED_FLAGS = new Set(['--nodb', '--quiet', '--norc']);

/** { evals, files, connectionSpecifier, nodb }; an option mongosh has and this shell lacks throws. */
function parseArgs(argv) {
  const options = { evals: [], files: [], connectionSpecifier: null, nodb: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--eval' || arg === '--file' || arg === '-f') {
      if (i + 1 >= argv.length) throw new KitShellUnsupported(`the option ${arg} without a value`);
      (arg === '--eval' ? options.evals : options.files).push(argv[++i]);
    } else if (arg.startsWith('--eval=')) {
      options.evals.push(arg.slice('--eval='.length));
    } else if (ACCEPTED_FLAGS.has(arg)) {
      if (arg === '--nodb') options.nodb = true;
    } else if (arg.startsWith('-')) {
      throw new KitShellUnsupported(`the option ${arg}`);
    } else if (arg.endsWith('.js')) {
      options.files.push(arg);
    } else if (options.connectionSpecifier === null) {
      options.connectionSpecifier = arg;
    } else {
      options.files.push(arg);
    }
  }
  return options;
}

function reportError(err, stderr, env) {
  const name = err?.name ?? 'Error';
  const message = err?.message ?? String(err);
  stderr.write(env.MONGOSH_DISPLAY_STARTUP_STACK_TRACE && err?.stack ? `${err.stack}\n` : `${name}: ${message}\n`);
}

/** Runs the shell with argv; resolves to its exit status. */
async function main(argv, { stdout = process.stdout, stderr = process.stderr, env = process.env, cwd = process.cwd() } = {}) {
  let options;
  try {
    options = parseArgs(argv);
  } catch (err) {
    reportError(err, stderr, env);
    return 1;
  }
  let evaluator = null;
  const { globals, shellFunctions, state } = createShell({ output: stdout, loadFile: (file) => evaluator.loadFile(file) });
  let exitCode = 0;
  try {
    const context = await createScriptContext({ globals, shellFunctions, state, output: stdout, cwd });
    evaluator = new ScriptEvaluator({ context, rewriter: new ScriptRewriter({ cacheDir: defaultCacheDir(env) }) });
    if (options.connectionSpecifier && !options.nodb) {
      const mongo = await openMongo(state, options.connectionSpecifier);
      state.currentDb = mongo.getDB(mongo._initialDb());
    }
    let last;
    for (const code of options.evals) last = await evaluator.evaluate(code, '@(shell eval)');
    if (last !== undefined) stdout.write(`${await state.printer.formatEvalResult(last)}\n`);
    for (const file of options.files) await evaluator.loadFile(file);
  } catch (err) {
    if (err?.name === 'ExitRequest') {
      exitCode = err.exitCode;
    } else {
      reportError(err, stderr, env);
      exitCode = 1;
    }
  }
  // the driver's close() never returns where the server died with a connection checked out (its
  // pool paused, the topology reconnecting every 10 s): the script is over, so it gets 5 s
  await Promise.race([state.closeAll().catch(() => {}), new Promise((resolve) => { setTimeout(resolve, 5000).unref(); })]);
  writeCalls(env[KIT_SHELL_CALLS_VARIABLE]);
  return exitCode;
}

/** Which path took each method's calls (api/lean.js), for the kit that started this shell. */
function writeCalls(file) {
  if (!file) return;
  try {
    fs.writeFileSync(file, JSON.stringify(usage));
  } catch { /* the kit reads no calls: its records say so */ }
}

module.exports = { main, parseArgs };
