'use strict';
// Runs one scenario script in a shell, the way a user would paste it, with the run's sizes defined
// before the file by --eval: the kit's own shell (orchestrator/kit-shell, mongosh's semantics at
// close to the bare driver's cost, the default) or mongosh (the npm package), both given the same
// arguments and read the same way. Lines that are JSON objects with a "scenario"
// field are measurements; {"progress":n,"of":m} lines move the progress bar; the rest is the
// script's own output, kept in the step's log.
const fs = require('node:fs');
const path = require('node:path');
const readline = require('node:readline');
const { spawn } = require('node:child_process');
const { ScriptError } = require('../errors');
const { trackChild } = require('../processes');
const { redactUri } = require('../servers/spec');
const { ROOT, SHELL_URI_VARIABLE } = require('../config');

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
      if (!/^[A-Za-z_$][\w$]*$/.test(k)) throw new Error(`not a variable name: ${k}`);
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
 * no uri, no connection is made.
 */
function shellInvocation({ shell = DEFAULT_SHELL, uri = null, file = null, vars = {} }) {
  const entry = SHELL_ENTRIES[shell];
  if (!entry) throw new Error(`unknown shell: ${shell}`);
  const connect = uri ? ` db = connect(process.env.${SHELL_URI_VARIABLE});` : '';
  const args = [entry, '--nodb', '--quiet', '--norc', '--eval', `${defineVariables(vars)}${connect}`];
  if (file) args.push('--file', file);
  const env = { ...process.env, ...(uri ? { [SHELL_URI_VARIABLE]: uri } : {}) };
  if (shell === 'mongosh') env.HOME = mongoshHome();
  // from the kit's folder, a script's require() finds the kit's packages (hdr-histogram-js)
  return { command: process.execPath, args, env, cwd: ROOT };
}

function runShellScript({ shell = DEFAULT_SHELL, uri, file, vars, server, logFile, onProgress = () => {}, onMeasurement = () => {} }) {
  const { command, args, env, cwd } = shellInvocation({ shell, uri, file, vars });
  const child = trackChild(spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], env, cwd }));
  const log = logFile ? fs.createWriteStream(logFile, { flags: 'a' }) : null;
  const measurements = [];
  const tail = [];
  const keepTail = (line) => { tail.push(line); if (tail.length > 40) tail.shift(); };

  readline.createInterface({ input: child.stdout }).on('line', (line) => {
    const parsed = parseLine(line);
    if (parsed && typeof parsed.progress === 'number') return onProgress(parsed.progress, parsed.of);
    if (log) log.write(`${line}\n`);
    if (parsed && typeof parsed.scenario === 'string') {
      measurements.push(parsed);
      onMeasurement(parsed);
    } else {
      keepTail(line);
    }
  });
  readline.createInterface({ input: child.stderr }).on('line', (line) => {
    if (log) log.write(`[stderr] ${line}\n`);
    keepTail(line);
  });

  return new Promise((resolve, reject) => {
    child.on('error', (err) => reject(new ScriptError(`could not start ${shell}: ${err.message}`, { script: file, server })));
    child.on('close', (code, signal) => {
      if (log) log.end();
      const script = path.relative(process.cwd(), file) || file;
      if (code === 0) return resolve({ measurements, output: tail });
      const why = signal ? `was stopped by ${signal}` : `exited with code ${code}`;
      reject(new ScriptError(`${script} on server '${server}' ${why}: ${redactUri(errorSummary(tail))}`,
        { script, server, stderr: tail.join('\n') }));
    });
  });
}

module.exports = { runShellScript, shellInvocation, defineVariables, SHELLS, DEFAULT_SHELL };
