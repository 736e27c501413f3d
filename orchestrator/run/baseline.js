'use strict';
// The one path that is not a mongosh script: a scenario's SQL baseline (the article's SQL Server
// row), run once per run on a private PostgreSQL cluster started the way ferretdb-pg starts its own.
const path = require('node:path');
const { startPostgres } = require('../servers/postgres');
const { postgresMissing } = require('../capabilities');
const { onCleanup } = require('../processes');
const { redactUri } = require('../servers/spec');

/**
 * The scenario's baseline at these sizes; forServers, where the servers ran it at other sizes
 * (--size-per-server), names the ones these records stand beside.
 */
async function runBaseline({ scenario, sizes, forServers = null, options, results, progress, logDir, config }) {
  const spec = scenario.baseline;
  const name = spec.server;
  const fail = (step, err) => {
    results.append({ type: 'failure', scenario: scenario.name, server: name, step, error: redactUri(err.message || String(err)) });
    options.log(`FAILED ${name} · ${scenario.name} · ${step}: ${err.message}`);
    return 1;
  };
  // a machine without PostgreSQL (it is optional: npm run setup skips it in one line) records why,
  // and the findings held against the baseline say they cannot be tested here, with that reason
  const missing = postgresMissing(config);
  if (missing) {
    results.append({ type: 'measurement', scenario: scenario.name, server: name, baselineFor: scenario.name, unavailable: missing, ...(forServers ? { forServers } : {}) });
    options.log(`${name}: not run, because ${missing}`);
    return 0;
  }
  let pg;
  try {
    pg = await startPostgres({ binDir: config.postgresBinDir, logFile: path.join(logDir, `${name}-postgres.log`) });
  } catch (err) {
    return fail('start', err);
  }
  const unregister = onCleanup(() => pg.stop());
  try {
    await pg.createDatabase(scenario.database);
    results.append({
      type: 'server', server: name, spec: name, description: spec.label, startedByKit: true,
      product: 'PostgreSQL', version: pg.version, engine: 'heap tables', baselineFor: scenario.name,
    });
    options.log(`${name}: PostgreSQL ${pg.version} (${spec.label})`);
    const run = require(scenario.baselinePath);
    await run({
      connectionString: pg.url(scenario.database),
      sizes,
      workers: options.workers,
      seed: options.seed ?? null,
      progress,
      record: (m) => results.append({ type: 'measurement', ...m, scenario: scenario.name, server: name, ...(forServers ? { forServers } : {}) }),
    });
    return 0;
  } catch (err) {
    if (options.isInterrupted?.()) return 0;
    return fail('baseline', err);
  } finally {
    unregister();
    await pg.stop();
  }
}

module.exports = { runBaseline };
