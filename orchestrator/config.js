'use strict';
// Every setting the kit reads from its environment, with the kit's fixed names, listed once:
// resolveConfig() reads them, `orchestrate config` prints them, and docs/configuration.md's table is
// written from them (scripts/docs.js; a test holds the two together), as mongodb-memory-server's
// resolveConfig keeps its variables in one place.
const os = require('node:os');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');

/** The prefix of every database the kit creates or touches; the kit refuses any other. */
const DB_PREFIX = 'classics_';

/** The collection that marks a database as the kit's own (a prefixed database without it is refused). */
const OWNER_MARK = `${DB_PREFIX}owner`;

/** The kit's own databases, beside the scenarios' (each scenario names its own in scenario.json). */
const KIT_DATABASES = {
  lease: `${DB_PREFIX}kit`,
  calibration: `${DB_PREFIX}calibration`,
};

/**
 * --budget's default under --size auto: the time each scenario's steps may take on one server.
 * Chosen so that the README's main job (every scenario on the embedded server, start-up,
 * calibration, probes and rendering included) takes at most 15 minutes on the 2-core machines
 * this kit is built on, its first run too (at 4 minutes it took 18: docs/measurements/main-job.md),
 * while deciding every finding it decided then (embedded-comments' probes put TOTAL=1,000, the
 * least embedded-slows needs, at 176 s in one run and between 180 and 210 s in the next: at 2½ or
 * 3 minutes that finding needed a larger size); the one number to retune when the embedded
 * server changes.
 */
const DEFAULT_BUDGET_SECONDS = 210;

/**
 * The environment variables, in the order docs/configuration.md lists them. `key` is the field of the
 * resolved config; `parse` turns the text into its value; `internal` ones are set by the kit for
 * the processes it starts and are listed so that no module invents its own.
 */
const VARIABLES = [
  {
    name: 'MONGOMS_SYSTEM_BINARY', key: 'mongodSystemBinary', default: null,
    doc: 'a mongod binary for `mongod` and `embedded` (read by mongodb-memory-server itself; the kit checks its version)',
    shown: 'download',
  },
  {
    name: 'CLASSICS_MONGOD_DOWNLOAD_TIMEOUT_MS', key: 'mongodDownloadTimeoutMs', default: 600000, parse: Number,
    doc: 'how long downloading and unpacking mongod may take (the first run only; its progress shows on stderr) before it is stopped and `embedded` falls back to FerretDB',
  },
  {
    name: 'CLASSICS_MONGOD_START_TIMEOUT_MS', key: 'mongodStartTimeoutMs', default: 60000, parse: Number,
    doc: 'how long a mongod may take to say it is ready (a resumed large data folder takes a while) before it is stopped, whatever the download took',
  },
  {
    name: 'CLASSICS_FERRETDB_BIN', key: 'ferretdbBin', default: path.join(ROOT, '.tools', 'ferretdb', 'bin', 'ferretdb'),
    doc: 'the FerretDB binary', shown: '`.tools/ferretdb/bin/ferretdb`',
  },
  {
    name: 'CLASSICS_FERRETDB2_BIN', key: 'ferretdb2Bin', default: path.join(ROOT, '.tools', 'ferretdb2', 'bin', 'ferretdb'),
    doc: 'the FerretDB 2 binary (`ferretdb2`)', shown: '`.tools/ferretdb2/bin/ferretdb`',
  },
  {
    name: 'CLASSICS_DOCUMENTDB_ROOT', key: 'documentdbRoot', default: path.join(ROOT, '.tools', 'documentdb', 'root'),
    doc: 'the Debian sid root file system whose PostgreSQL 18 with DocumentDB `ferretdb2` runs', shown: '`.tools/documentdb/root`',
  },
  {
    name: 'CLASSICS_PG_BINDIR', key: 'postgresBinDir', default: null,
    doc: 'PostgreSQL\'s binaries', shown: 'newest `/usr/lib/postgresql/*/bin`, else `PATH`',
  },
  {
    name: 'CLASSICS_PG_DIR', key: 'pgDir', default: null,
    doc: 'where the kit keeps what its PostgreSQL clusters need: the template clusters (initdb and, for `ferretdb2`, DocumentDB\'s extension made once, then copied for each fresh cluster), and the clusters\' data where `TMPDIR` is closed to PostgreSQL\'s user (as root, PostgreSQL runs as the `postgres` user, who must be able to pass through every folder above them)',
    shown: '`node_modules/.cache/mongo-classics-pg`; as root, where the `postgres` user cannot pass through the checkout\'s folders, `/var/tmp/mongo-classics-pg-<uid>-<checkout>`',
  },
  {
    name: 'CLASSICS_RUNS_DIR', key: 'runsDir', default: path.join(ROOT, 'reports', 'runs'),
    doc: 'where `orchestrate run` writes its run folders unless --out says otherwise; every run folder in it is the history `orchestrate history` reads, and the history a report decides each verdict\'s interval across runs from',
    shown: '`reports/runs`',
  },
  {
    name: 'CLASSICS_SHELL_DIR', key: 'shellDir', default: path.join(ROOT, 'shell'),
    doc: 'the folder of scenario folders (the tests point it at `test/fixtures/shell`)', shown: '`shell/`',
  },
  {
    name: 'CLASSICS_KIT_SHELL_CACHE', key: 'kitShellCache', default: path.join(ROOT, 'node_modules', '.cache', 'mongo-classics-kit-shell'),
    doc: 'where the kit\'s shell keeps each script\'s rewritten text, so an unchanged script starts without Babel', shown: '`node_modules/.cache/mongo-classics-kit-shell`',
  },
  {
    name: 'CLASSICS_VALIDATOR_CACHE', key: 'validatorCache', default: path.join(ROOT, 'node_modules', '.cache', 'mongo-classics-validators'),
    doc: 'where the kit keeps its file formats\' validators, compiled once from the JSON Schemas, so that a run starts without compiling them again', shown: '`node_modules/.cache/mongo-classics-validators`',
  },
  {
    name: 'CLASSICS_COMPILED_CLIENT_DIR', key: 'compiledClientDir', default: path.join(ROOT, 'node_modules', '.cache', 'mongo-classics-compiled-client'),
    doc: 'where `npm run bench` builds its compiled client (the calibration loops in C on libmongoc), which every run\'s calibration then times too', shown: '`node_modules/.cache/mongo-classics-compiled-client`',
  },
  {
    name: 'CLASSICS_KIT_SHELL_LEAN', key: 'kitShellLean', default: 'on',
    doc: '`off` sends every call of the kit\'s shell through the driver (what `orchestrate --lean off` sets); `on`: the single-document writes and reads take its lean path', shown: '`on`',
  },
  {
    name: 'CLASSICS_STEP_STALL_SECONDS', key: 'stepStallSeconds', default: 300, parse: Number,
    doc: 'how long a step\'s shell may print nothing (no measurement, no progress line) before it is stopped and the step recorded as failed; where the size plan predicts the scenario longer, three times that prediction',
  },
  {
    name: 'CLASSICS_STATE_DIR', key: 'stateDir', default: path.join(ROOT, 'node_modules', '.cache', 'mongo-classics-runs'),
    doc: 'where each run records the processes, folders and mounts it started, so that what a killed run left is reaped by the next run or `orchestrate clean`', shown: '`node_modules/.cache/mongo-classics-runs`',
  },
  {
    name: 'CLASSICS_PROBE_STORE', key: 'probeStoreDir', default: null,
    doc: 'where each machine\'s calibrations and probes are kept (per server version and kit version), so that a later run checks them with one short probe instead of probing again; `off`: none kept or read', shown: '`$XDG_CACHE_HOME/mongo-classics/probes`, else `~/.cache/mongo-classics/probes`',
  },
  {
    name: 'CLASSICS_TEST_URI', key: 'testUri', default: null,
    doc: 'tests that take a server use this running one', shown: 'start their own',
  },
  {
    name: 'CLASSICS_CHROMIUM', key: 'chromium', default: '/usr/bin/chromium',
    doc: 'the browser that takes `orchestrate report --screenshot`\'s first-screen.png and that the report-page test drives', shown: '`/usr/bin/chromium`',
  },
  {
    name: 'DEBUG', key: 'debug', default: '',
    doc: '`DEBUG=classics:*`: debug logging, and a stack with any error', shown: 'off',
  },
  {
    name: 'CLASSICS_SHELL_URI', key: 'shellUri', default: null, internal: true,
    doc: 'set by the kit for each shell it starts: the server\'s URI, in the environment rather than on the command line, where `ps` would show a password',
  },
  {
    name: 'CLASSICS_KIT_SHELL_CALLS', key: 'kitShellCalls', default: null, internal: true,
    doc: 'set by the kit for each of its own shells it starts: a file where the shell writes, as it ends, how many calls of each method took its lean path and how many the driver, and why',
  },
];

function resolveConfig(env = process.env) {
  const config = {
    root: ROOT,
    compareDir: path.join(ROOT, 'reports', 'compare'),
    figuresDir: path.join(ROOT, 'reports', 'figures'),
    historyDir: path.join(ROOT, 'reports', 'history'),
    dbPrefix: DB_PREFIX,
    databases: KIT_DATABASES,
    // a URI server must answer within this or the run does not start
    serverSelectionTimeoutMs: 8000,
    // pings whose median is a server record's roundTripMs (odd, so the median is one of them)
    roundTripPings: 11,
  };
  for (const v of VARIABLES) {
    const text = env[v.name];
    config[v.key] = text === undefined || text === '' ? v.default : (v.parse ? v.parse(text) : text);
  }
  // the kept probes are the user's, like any cache: outside the checkout, which a clone starts without
  if (config.probeStoreDir === null) config.probeStoreDir = path.join(env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'mongo-classics', 'probes');
  if (config.probeStoreDir === 'off') config.probeStoreDir = null;
  return config;
}

/** The variable that carries the server's URI to each shell the kit starts. */
const SHELL_URI_VARIABLE = VARIABLES.find((v) => v.key === 'shellUri').name;
/** The variable that turns the kit's shell's lean path off (`--lean off`). */
const KIT_SHELL_LEAN_VARIABLE = VARIABLES.find((v) => v.key === 'kitShellLean').name;
/** The variable naming the file where the kit's shell says which path took its calls. */
const KIT_SHELL_CALLS_VARIABLE = VARIABLES.find((v) => v.key === 'kitShellCalls').name;

module.exports = {
  resolveConfig, VARIABLES, ROOT, DB_PREFIX, KIT_DATABASES, OWNER_MARK, SHELL_URI_VARIABLE, KIT_SHELL_LEAN_VARIABLE, KIT_SHELL_CALLS_VARIABLE,
  DEFAULT_BUDGET_SECONDS,
};
