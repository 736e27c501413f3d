'use strict';
// Runs one scenario script in a shell, the way a user would paste it, with the run's sizes defined
// before the file by --eval: the kit's own shell (orchestrator/kit-shell, mongosh's semantics at
// close to the bare driver's cost, the default) or mongosh (the npm package), both given the same
// arguments and read the same way. Lines that are JSON objects with a "scenario"
// field are measurements; {"progress":n,"of":m} lines move the progress bar; a {"turn": {...}}
// line asks the kit for a partner's block (run/conductor.js); the rest is the script's own
// output, kept in the step's log.
const fs = require('node:fs');
const path = require('node:path');
const readline = require('node:readline');
const { spawn } = require('node:child_process');
const { ScriptError, DiskWriteError, ServerDiedError, StepStalledError, ScenarioError, UsageError } = require('../errors');
const { trackChild, dieWithKit } = require('../processes');
const { redactUri } = require('../servers/spec');
const { ROOT, SHELL_URI_VARIABLE, KIT_SHELL_LEAN_VARIABLE, KIT_SHELL_CALLS_VARIABLE } = require('../config');

/** The shells a script can run in, each an entry point started with Node; calibration times each beside the driver. */
const SHELL_ENTRIES = {
  kit: path.join(ROOT, 'orchestrator', 'kit-shell', 'bin.js'),
  mongosh: require.resolve('mongosh/bin/mongosh.js'),
};
const SHELLS = Object.keys(SHELL_ENTRIES);
const DEFAULT_SHELL = 'kit';

let shellHome = null;
/**
 * A home folder of the kit's own for the shells it starts, whose mongosh config turns off
 * mongosh's log of every API call: that log costs about a millisecond per operation (measured:
 * findOne 2.9 ms with it, 1.8 ms without, 1.9 ms on the bare driver, FerretDB on PostgreSQL) and
 * the articles' shells kept none. The user's own ~/.mongodb is left alone.
 */
function mongoshHome() {
  if (!shellHome || !fs.existsSync(shellHome)) {
    const { makeTempDir } = require('../processes');
    shellHome = makeTempDir('classics-mongosh-home-');
    const configDir = path.join(shellHome, '.mongodb', 'mongosh');
    fs.mkdirSync(configDir, { recursive: true });
    fs.writeFileSync(path.join(configDir, 'config'), JSON.stringify({ disableLogging: true }));
  }
  return shellHome;
}

/** `var NAME = value;` for each variable, so the script's typeof guards keep them. */
function defineVariables(vars) {
  return Object.entries(vars)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => {
      if (!/^[A-Za-z_$][\w$]*$/.test(k)) throw new ScenarioError(`not a variable name: ${k}`);
      return `var ${k} = ${JSON.stringify(v)};`;
    })
    .join(' ');
}

function parseLine(line) {
  if (!line.startsWith('{')) return null;
  try {
    return JSON.parse(line);
  } catch {
    return null;
  }
}

/** The first line that looks like the error, for a one-line message. */
function errorSummary(lines) {
  const pattern = /(Error|Uncaught|Exception|Unsupported|failed)/;
  return (lines.find((l) => pattern.test(l)) || lines[lines.length - 1] || 'no output').trim();
}

/**
 * How a shell is started on a script, the same for every shell: { command, args, env, cwd }. The
 * URI travels in the environment, which only this user can read, not on the command line, where
 * `ps` shows it to everyone: the shell starts without a connection and the --eval makes it. With
 * no uri, no connection is made. The kit's shell also gets its lean path's setting (lean: 'on'
 * or 'off') and, with callsFile, where to say which path took its calls.
 */
function shellInvocation({ shell = DEFAULT_SHELL, uri = null, file = null, vars = {}, lean = 'on', callsFile = null }) {
  const entry = SHELL_ENTRIES[shell];
  if (!entry) throw new UsageError(`unknown shell: ${shell} (known: ${Object.keys(SHELL_ENTRIES).join(', ')})`);
  const connect = uri ? ` db = connect(process.env.${SHELL_URI_VARIABLE});` : '';
  const args = [entry, '--nodb', '--quiet', '--norc', '--eval', `${defineVariables(vars)}${connect}`];
  if (file) args.push('--file', file);
  const env = { ...process.env, ...(uri ? { [SHELL_URI_VARIABLE]: uri } : {}) };
  delete env[KIT_SHELL_CALLS_VARIABLE];
  if (shell === 'kit') {
    env[KIT_SHELL_LEAN_VARIABLE] = lean;
    if (callsFile) env[KIT_SHELL_CALLS_VARIABLE] = callsFile;
  }
  if (shell === 'mongosh') env.HOME = mongoshHome();
  // from the kit's folder, a script's require() finds the kit's packages (hdr-histogram-js)
  return { command: process.execPath, args, env, cwd: ROOT };
}

let callsFiles = 0;
let callsDir = null;
/**
 * A file of its own for one kit shell to say which path took its calls, in a temporary folder of
 * the run's (removed with the run's other folders, by the watchdog too should the run be killed).
 */
function newCallsFile() {
  if (!callsDir || !fs.existsSync(callsDir)) callsDir = require('../processes').makeTempDir('classics-kit-calls-');
  return path.join(callsDir, `${++callsFiles}.json`);
}

/** What a kit shell wrote to its calls file (read once, then removed), or null. */
function takeCalls(file) {
  if (!file) return null;
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return null;
  } finally {
    fs.rmSync(file, { force: true });
  }
}

/**
 * Which path took a step's calls, from what its kit shells wrote (api/lean.js's usage): per
 * method the calls by path and why the driver took some, and `path`, over the methods the lean
 * path covers (the single-document writes and reads): lean (all of their calls), driver (none),
 * or mixed; the methods it never takes (cursors, bulk writes) are counted as the driver's
 * without making a step mixed. Null where no kit shell said.
 */
function combineCalls(list) {
  const present = list.filter(Boolean);
  if (!present.length) return null;
  const combined = { path: null, lean: {}, driver: {}, why: {} };
  const covered = new Set(present.flatMap((calls) => calls.covered || []));
  for (const calls of present) {
    for (const side of ['lean', 'driver']) {
      for (const [method, n] of Object.entries(calls[side] || {})) combined[side][method] = (combined[side][method] ?? 0) + n;
    }
    for (const [method, reasons] of Object.entries(calls.why || {})) {
      const into = (combined.why[method] ??= {});
      for (const [reason, n] of Object.entries(reasons)) into[reason] = (into[reason] ?? 0) + n;
    }
  }
  const total = (side, only) => Object.entries(combined[side]).filter(([m]) => !only || covered.has(m)).reduce((a, [, n]) => a + n, 0);
  const [lean, coveredByDriver, driver] = [total('lean'), total('driver', true), total('driver')];
  combined.path = lean + driver === 0 ? 'none' : lean === 0 ? 'driver' : coveredByDriver === 0 ? 'lean' : 'mixed';
  return combined;
}

/**
 * Runs a script in a shell; resolves to { measurements, output, calls }. Two things stop it early,
 * its shell killed: `health`, polled each second, saying the server is gone (a ServerDiedError
 * with its reason), and no line at all from the shell for `stallMs` (a StepStalledError): a shell
 * left reconnecting to a dead port, or a server that stopped answering, never holds the run.
 */
function runShellScript({
  shell = DEFAULT_SHELL, uri, file, vars, server, logFile, lean = 'on', onProgress = () => {}, onMeasurement = () => {},
  onTurn = () => {}, health = null, stallMs = null,
}) {
  const callsFile = shell === 'kit' ? newCallsFile() : null;
  const { command, args, env, cwd } = shellInvocation({ shell, uri, file, vars, lean, callsFile });
  const child = trackChild(spawn(...dieWithKit(command, args), { stdio: ['ignore', 'pipe', 'pipe'], env, cwd }));
  const log = logFile ? fs.createWriteStream(logFile, { flags: 'a' }) : null;
  const measurements = [];
  const tail = [];
  const keepTail = (line) => { tail.push(line); if (tail.length > 40) tail.shift(); };
  let lastLine = Date.now();
  let stopped = null; // why the kit stopped the shell, if it did
  const stop = (err) => {
    if (stopped) return;
    stopped = err;
    try { child.kill('SIGKILL'); } catch { /* gone */ }
  };
  // a full disk under the step's log: the run cannot keep what it measures, so it stops
  if (log) log.on('error', (err) => stop(new DiskWriteError(logFile, err)));

  readline.createInterface({ input: child.stdout }).on('line', (line) => {
    lastLine = Date.now();
    const parsed = parseLine(line);
    if (parsed && typeof parsed.progress === 'number') return onProgress(parsed.progress, parsed.of);
    if (log && !stopped) log.write(`${line}\n`);
    // the script waits for the partner's block the moment it prints this line
    if (parsed && parsed.turn && typeof parsed.turn === 'object') return onTurn(parsed.turn);
    if (parsed && typeof parsed.scenario === 'string') {
      measurements.push(parsed);
      onMeasurement(parsed);
    } else {
      keepTail(line);
    }
  });
  readline.createInterface({ input: child.stderr }).on('line', (line) => {
    lastLine = Date.now();
    if (log && !stopped) log.write(`[stderr] ${line}\n`);
    keepTail(line);
  });

  let checking = false;
  const watch = (health || stallMs) && setInterval(async () => {
    if (stallMs && Date.now() - lastLine > stallMs) {
      stop(new StepStalledError(`${path.relative(process.cwd(), file) || file} on server '${server}' printed nothing for ${Math.round(stallMs / 1000)} s, its deadline: its shell was stopped`));
    }
    if (!health || checking || stopped) return;
    checking = true;
    const gone = await health().catch(() => null);
    checking = false;
    if (gone) stop(new ServerDiedError(gone, { server, reason: gone }));
  }, 1000);

  return new Promise((resolve, reject) => {
    child.on('error', (err) => {
      if (watch) clearInterval(watch);
      takeCalls(callsFile);
      reject(new ScriptError(`could not start ${shell}: ${err.message}`, { script: file, server }));
    });
    child.on('close', (code, signal) => {
      if (watch) clearInterval(watch);
      const calls = takeCalls(callsFile);
      const finish = () => {
        if (stopped) return reject(stopped);
        const script = path.relative(process.cwd(), file) || file;
        if (code === 0) return resolve({ measurements, output: tail, calls });
        const why = signal ? `was stopped by ${signal}` : `exited with code ${code}`;
        return reject(new ScriptError(`${script} on server '${server}' ${why}: ${redactUri(errorSummary(tail))}`,
          { script, server, stderr: tail.join('\n') }));
      };
      // everything the shell printed is in its log before the step is judged
      if (!log || log.destroyed) return finish();
      let once = false;
      const finishOnce = () => { if (!once) { once = true; finish(); } };
      log.once('error', finishOnce);
      log.end(finishOnce);
    });
  });
}

module.exports = { runShellScript, shellInvocation, defineVariables, combineCalls, SHELLS, DEFAULT_SHELL };
