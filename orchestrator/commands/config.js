'use strict';
// `orchestrate config`: every setting the kit reads from its environment, its value now and what
// it does, from the one list in orchestrator/config.js; then which server kinds and features this
// machine has (orchestrator/capabilities.js).
const { VARIABLES } = require('../config');
const { redactUri } = require('../servers/spec');

function register(program, { config, log, setResult }) {
  program.command('config')
    .description('print every environment variable the kit reads, its value here and what it sets, and which server kinds and features this machine has')
    .option('--json', 'print them as JSON: { variables: [{ name, value, set, default, internal, doc }], mongod: { version, library, systemBinary }, capabilities: [{ kind, name, what, missing }] }')
    .action((opts) => {
      const unset = (value) => value === null || value === '' || value === undefined;
      // which mongod a plain `mongod` or `embedded` gets, from the library itself
      const { defaultMongod } = require('../servers/mongod');
      const { version, library } = defaultMongod();
      const { capabilities } = require('../capabilities');
      if (opts.json) {
        log(JSON.stringify({
          variables: VARIABLES.map((v) => ({
            name: v.name, value: unset(config[v.key]) ? null : redactUri(String(config[v.key])), set: !unset(config[v.key]),
            default: v.shown || v.default || null, internal: Boolean(v.internal), doc: v.doc.split('\u0060').join(''),
          })),
          mongod: { version, library, systemBinary: config.mongodSystemBinary || null },
          capabilities: capabilities(config).map(({ kind, name, what, missing }) => ({ kind, name, what, missing: missing || null })),
        }, null, 2));
        setResult(0);
        return;
      }
      for (const v of VARIABLES) {
        const value = config[v.key];
        const shown = unset(value) ? `(unset: ${v.shown || v.default})` : redactUri(String(value));
        log(`${v.name}${v.internal ? ' (set by the kit)' : ''} = ${shown}`);
        log(`    ${v.doc.split('\u0060').join('')}`);
      }
      log(config.mongodSystemBinary
        ? `mongod where no version is named: the one MONGOMS_SYSTEM_BINARY names (without it, ${version}: ${library}'s default)`
        : `mongod where no version is named: ${version} (${library}'s default; mongod@VERSION or MONGOMS_VERSION asks for another)`);
      // which server kinds and features this machine has, and why not the others
      log('this machine (npm run setup adds what it can; docs/setup.md says what each part needs):');
      for (const c of capabilities(config)) {
        log(`  ${c.kind} ${c.name}, ${c.what}: ${c.missing ? `no, because ${c.missing}` : 'yes'}`);
      }
      setResult(0);
    });
}

module.exports = { register };
