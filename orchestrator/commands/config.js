'use strict';
// `orchestrate config`: every setting the kit reads from its environment, its value now and what
// it does, from the one list in orchestrator/config.js.
const { VARIABLES } = require('../config');
const { redactUri } = require('../servers/spec');

function register(program, { config, log, setResult }) {
  program.command('config')
    .description('print every environment variable the kit reads, its value here and what it sets')
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
      setResult(0);
    });
}

module.exports = { register };
