#!/usr/bin/env node
'use strict';
// How long would power-of-2-sizes take at the article's size on a server kind? Loading 2 x
// 1,000,001 documents one insert at a time would take hours here, so this loads them in bulk
// (documents drawn as setup.js draws them, untimed), then runs pass.js at the article's
// collection size with a sample of each operation and projects, from the per-operation times
// measured there, one pass (100,001 updates, 20,001 removes, 20,000 inserts on each collection),
// the set-up (2 x 1,000,001 single inserts) and the whole run (set-up + 21 passes). A projection
// from measured per-operation times at that size, not a run of the whole.
// usage: node shell/power-of-2-sizes/tools/article-scale.js [SERVER_SPEC] [DOCS] [--shell kit|mongosh] [--sample K]
// (SERVER_SPEC: ferretdb-pg by default; ferretdb2, or any other; --sample K times the operations sampled)
const path = require('node:path');
const { MongoClient } = require('mongodb');
const { resolveConfig } = require('../../../orchestrator/config');
const { parseServerSpec } = require('../../../orchestrator/servers/spec');
const { startServer } = require('../../../orchestrator/servers/start');
const { runShellScript, DEFAULT_SHELL } = require('../../../orchestrator/run/shells');
const { cleanupAll, installSignalHandlers, makeTempDir } = require('../../../orchestrator/processes');

const SCENARIO = path.resolve(__dirname, '..');
const DESCRIPTOR = require(path.join(SCENARIO, 'scenario.json'));
const ARTICLE = DESCRIPTOR.sizes.article;
const SAMPLE = { UPDATES: 20, REMOVES: 20, INSERTS: 200 };

function getRandomInt(min, max) { return Math.floor(Math.random() * (max - min + 1)) + min; }
function fooArray() {
  const a = [];
  for (let i = 0; i < getRandomInt(1, 10); i++) a[i] = getRandomInt(1, 10) * getRandomInt(1, 50);
  return a;
}

async function main() {
  const args = process.argv.slice(2);
  const shellAt = args.indexOf('--shell');
  const shell = shellAt >= 0 ? args.splice(shellAt, 2)[1] : DEFAULT_SHELL;
  const sampleAt = args.indexOf('--sample');
  const k = sampleAt >= 0 ? Number(args.splice(sampleAt, 2)[1]) : 1;
  if (!(Number.isInteger(k) && k > 0)) throw new Error('--sample takes a whole number of times the default sample');
  const sample = Object.fromEntries(Object.entries(SAMPLE).map(([name, n]) => [name, n * k]));
  const spec = parseServerSpec(args[0] || 'ferretdb-pg');
  const docs = Number(args[1] || ARTICLE.DOCS);
  installSignalHandlers();
  const config = resolveConfig();
  const logDir = makeTempDir('classics-scale-');
  const server = await startServer(spec, { config, logDir, log: (l) => console.log(l) });
  const client = new MongoClient(server.uri);
  try {
    await client.connect();
    const db = client.db(DESCRIPTOR.database);
    await db.dropDatabase();
    const t0 = Date.now();
    for (let start = 0; start < docs; start += 10000) {
      const batch = [];
      for (let i = start; i < Math.min(docs, start + 10000); i++) batch.push({ _id: i, foo: fooArray() });
      await db.collection('noPowerOf2Sizes').insertMany(batch, { ordered: false });
      await db.collection('powerOf2Sizes').insertMany(batch, { ordered: false });
    }
    const counts = await Promise.all(['noPowerOf2Sizes', 'powerOf2Sizes'].map((c) => db.collection(c).countDocuments({})));
    console.log(`bulk-loaded 2 x ${docs} documents in ${((Date.now() - t0) / 1000).toFixed(0)} s (untimed for the projection); counted ${counts.join(' and ')}`);
    if (counts.some((n) => n !== docs)) throw new Error(`the bulk load left ${counts.join(' and ')} documents, not ${docs} in each`);
    // one operation type at a time, so each gets its own per-operation time at this size
    const perOp = {};
    for (const [type, vars] of [['update', { UPDATES: sample.UPDATES, REMOVES: 0, INSERTS: 0 }],
      ['remove', { UPDATES: 0, REMOVES: sample.REMOVES, INSERTS: 0 }], ['insert', { UPDATES: 0, REMOVES: 0, INSERTS: sample.INSERTS }]]) {
      const { measurements } = await runShellScript({
        shell, uri: server.uri, file: path.join(SCENARIO, 'pass.js'),
        vars: { ...vars, DB_NAME: DESCRIPTOR.database, PASS: 1 }, server: spec.name, logFile: path.join(logDir, `${type}.log`),
      });
      const ops = vars.UPDATES + vars.REMOVES + vars.INSERTS;
      perOp[type] = measurements.reduce((n, m) => n + m.hrMs, 0) / (2 * ops);
      console.log(`${spec.name} at ${docs} documents: ${type} by _id ${perOp[type].toFixed(2)} ms (${2 * ops} operations sampled)`);
    }
    const passMs = 2 * (ARTICLE.UPDATES * perOp.update + ARTICLE.REMOVES * perOp.remove + ARTICLE.INSERTS * perOp.insert);
    const setupMs = 2 * ARTICLE.DOCS * perOp.insert;
    const h = (ms) => (ms < 3.6e6 ? `${(ms / 6e4).toFixed(0)} min` : `${(ms / 3.6e6).toFixed(1)} h`);
    console.log(`projected at the article's size: one pass ${h(passMs)}; set-up ${h(setupMs)} (inserts priced at the full collection's rate: an upper bound); whole run (set-up + ${ARTICLE.passes} passes) ${h(setupMs + ARTICLE.passes * passMs)}`);
  } finally {
    await client.close();
    await server.stop();
    await cleanupAll();
  }
}

main().catch((err) => { console.error(`article-scale: ${err.message}`); process.exitCode = 1; });
