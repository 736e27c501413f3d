'use strict';
// The table `npm run setup` ends with: each server kind and optional feature, ready or skipped with
// the reason and the command that adds it, then which server `embedded` will be. Ready or not is
// the kit's own answer (orchestrator/capabilities.js, which `orchestrate config` prints), never
// worked out again here; scripts/setup.sh passes only what it knows better than the kit:
//   CLASSICS_SETUP_ADD_<PART>  the command that adds a part on this platform and release
//   CLASSICS_SETUP_WHY_<PART>  why a part is missing, where setup's own step for it failed
// with PART one of MONGOD FERRETDB FERRETDB_PG FERRETDB2 POSTGRES CHROMIUM LIBMONGOC CJK.
const path = require('node:path');
const { resolveConfig } = require('../orchestrator/config');
const { capabilities } = require('../orchestrator/capabilities');

const ROOT = path.resolve(__dirname, '..');

/** capabilities' names, the table's labels and setup.sh's keys, in the order setup shows them. */
const ROWS = [
  ['mongod', 'mongod', 'MONGOD'],
  ['ferretdb', 'ferretdb', 'FERRETDB'],
  ['ferretdb-pg', 'ferretdb-pg', 'FERRETDB_PG'],
  ['ferretdb2', 'ferretdb2', 'FERRETDB2'],
  ['SQL baseline', 'SQL baseline (PostgreSQL)', 'POSTGRES'],
  ['browser test', 'Chromium (browser test)', 'CHROMIUM'],
  ['compiled client', 'libmongoc (compiled client)', 'LIBMONGOC'],
  ['CJK font', 'CJK font', 'CJK'],
];

/** A reason as one short clause: paths relative to the checkout, the kit's own how-to left to the add command. */
function shortReason(missing, hasAdd) {
  let text = missing.split(`${ROOT}/`).join('');
  if (hasAdd) text = text.replace(/\s*\([^()]*\)$/, '');
  return text;
}

/**
 * Which mongod `embedded` starts first (orchestrator/servers/start.js: a mongod, else ferretdb2,
 * else FerretDB 1.24 on PostgreSQL, else on SQLite): a mongod where one is downloaded already or
 * named by MONGOMS_SYSTEM_BINARY; else where mongodb-memory-server's download answers in 5 s.
 * Returns null where there is a mongod, else why not.
 */
async function mongodUnavailable(config, missing) {
  if (missing) return missing;
  if (config.mongodSystemBinary) return null;
  const { DryMongoBinary } = require('mongodb-memory-server-core');
  const { MongoBinaryDownloadUrl } = require('mongodb-memory-server-core/lib/util/MongoBinaryDownloadUrl');
  try {
    const opts = await DryMongoBinary.generateOptions({});
    if (await DryMongoBinary.locateBinary(opts)) return null;
    const url = await new MongoBinaryDownloadUrl(opts).getDownloadUrl();
    const res = await fetch(url, { method: 'HEAD', signal: AbortSignal.timeout(5000) });
    return res.ok ? null : `mongodb-memory-server's download of mongod ${opts.version} answered ${res.status}`;
  } catch (err) {
    const cause = err.cause || {};
    const why = err.name === 'TimeoutError' ? 'no answer in 5 s' : cause.code ? `${cause.code}${cause.hostname ? ` ${cause.hostname}` : ''}` : err.message.split('\n')[0];
    return `mongodb-memory-server cannot download mongod here (${why})`;
  }
}

async function main() {
  const config = resolveConfig();
  const caps = new Map(capabilities(config).map((c) => [c.name, c]));
  const { version } = require('../orchestrator/servers/mongod').defaultMongod();
  const mongodWhy = await mongodUnavailable(config, caps.get('mongod').missing);
  const width = Math.max(...ROWS.map(([, label]) => label.length));
  const lines = ['setup: what this machine has now (npx orchestrate config says more):'];
  const ready = new Set();
  for (const [name, label, key] of ROWS) {
    const cap = caps.get(name);
    const why = process.env[`CLASSICS_SETUP_WHY_${key}`] || cap.missing;
    const add = process.env[`CLASSICS_SETUP_ADD_${key}`];
    let state;
    if (name === 'mongod' && !cap.missing) {
      state = config.mongodSystemBinary ? `ready   the mongod MONGOMS_SYSTEM_BINARY names`
        : mongodWhy ? `skipped ${mongodWhy}; add one with: MONGOMS_SYSTEM_BINARY=/path/to/mongod (4.4 or later)` : `ready   mongod ${version} from mongodb-memory-server`;
      if (!mongodWhy) ready.add(name);
    } else if (why) {
      state = `skipped ${shortReason(why, Boolean(add))}${add ? `; add it with: ${add}` : ''}`;
    } else {
      state = 'ready';
      ready.add(name);
    }
    lines.push(`  ${label.padEnd(width)}  ${state}`);
  }
  const first = ['mongod', 'ferretdb2', 'ferretdb-pg', 'ferretdb'].find((name) => ready.has(name));
  const embedded = first === 'mongod' ? `mongod ${config.mongodSystemBinary ? `at ${config.mongodSystemBinary}` : version}`
    : first ? `${first} (${caps.get(first).what}), since ${mongodWhy}` : `none: no server kind is ready (${mongodWhy})`;
  lines.push(`  ${'embedded'.padEnd(width)}  = ${embedded}`);
  process.stdout.write(`${lines.join('\n')}\n`);
}

main().catch((err) => {
  process.stdout.write(`setup: could not list what this machine has (${err.message.split('\n')[0]}): npx orchestrate config does\n`);
});
