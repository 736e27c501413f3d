#!/usr/bin/env node
'use strict';
// Writes the generated parts of the documentation (each shell/*/README.md's findings from its
// published.json, docs/configuration.md's table from orchestrator/config.js). `--check` writes
// nothing and exits 1 naming the files that are out of step.
const { writeDocs } = require('../orchestrator/docs');

const check = process.argv.includes('--check');
try {
  const stale = writeDocs({ check });
  if (stale.length === 0) console.log('the generated documentation is in step with its sources');
  else console.log(`${check ? 'out of step' : 'written'}: ${stale.join(', ')}`);
  process.exitCode = check && stale.length ? 1 : 0;
} catch (err) {
  console.error(`docs: ${err.message}`);
  process.exitCode = 2;
}
