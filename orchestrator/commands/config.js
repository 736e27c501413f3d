'use strict';
// `orchestrate config`: every setting the kit reads from its environment, its value now and what
// it does, from the one list in orchestrator/config.js; then which server kinds and features this
// machine has (orchestrator/capabilities.js).
const { VARIABLES } = require('../config');
const { redactUri } = require('../servers/spec');

function register(program, { config, log, setResult }) {
  program.command('config')
    .description('print every environment variable the kit reads, its value here and what it sets, and which server kinds and features this machine has')
    .action(() => {
      for (const v of VARIABLES) {
        const value = config[v.key];
        const shown = value === null || value === '' ? `(unset: ${v.shown || v.default})` : redactUri(String(value));
        log(`${v.name}${v.internal ? ' (set by the kit)' : ''} = ${shown}`);
        log(`    ${v.doc.split('\u0060').join('')}`);
      }
      // which mongod a plain `mongod` or `embedded` gets, from the library itself
      const { defaultMongod } = require('../servers/mongod');
      const { version, library } = defaultMongod();
      log(config.mongodSystemBinary
        ? `mongod where no version is named: the one MONGOMS_SYSTEM_BINARY names (without it, ${version}: ${library}'s default)`
        : `mongod where no version is named: ${version} (${library}'s default; mongod@VERSION or MONGOMS_VERSION asks for another)`);
      // which server kinds and features this machine has, and why not the others
      const { capabilities } = require('../capabilities');
      log('this machine (npm run setup adds what it can; docs/setup.md says what each part needs):');
      for (const c of capabilities(config)) {
        log(`  ${c.kind} ${c.name}, ${c.what}: ${c.missing ? `no, because ${c.missing}` : 'yes'}`);
      }
      setResult(0);
    });
}

module.exports = { register };
