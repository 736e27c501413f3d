#!/usr/bin/env node
'use strict';
// Writes api/mongosh-api.json: every method name of every mongosh shell class, from the
// signatures @mongosh/shell-api registers for its own autocompletion. The kit's shell reads the
// list to give each mongosh method it lacks a stub that stops the script with KitShellUnsupported
// (so db.coll.mapReduce never turns into the sub-collection "coll.mapReduce"). Loading shell-api
// costs about 170 ms, too much for every start, hence a generated file; test/kit-shell checks it
// against the installed shell-api, so an upgrade that adds methods fails until this is re-run.
// usage: node orchestrator/kit-shell/tools/mongosh-api-names.js
const fs = require('node:fs');
const path = require('node:path');

const OUTPUT = path.join(__dirname, '..', 'api', 'mongosh-api.json');

/** { source, classes: { Collection: ['aggregate', ...], ... } } from the installed shell-api. */
function collectMongoshApiNames() {
  // the package's exports hide its package.json from require(); read it beside its main file
  const main = require.resolve('@mongosh/shell-api');
  const { version } = JSON.parse(fs.readFileSync(path.join(path.dirname(main), '..', 'package.json'), 'utf8'));
  const { signatures } = require('@mongosh/shell-api');
  const classes = {};
  for (const name of Object.keys(signatures).sort()) {
    const methods = Object.keys(signatures[name].attributes || {}).sort();
    if (methods.length) classes[name] = methods;
  }
  return { source: `@mongosh/shell-api ${version} signatures`, classes };
}

if (require.main === module) {
  fs.writeFileSync(OUTPUT, `${JSON.stringify(collectMongoshApiNames(), null, 2)}\n`);
  process.stdout.write(`wrote ${path.relative(process.cwd(), OUTPUT)}\n`);
}

module.exports = { collectMongoshApiNames, OUTPUT };
