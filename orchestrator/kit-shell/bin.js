#!/usr/bin/env node
'use strict';
// The kit's shell, started as the kit starts mongosh: see cli.js.
require('./cli').main(process.argv.slice(2)).then((code) => process.exit(code));
