#!/usr/bin/env node
'use strict';
require('../orchestrator/cli').main(process.argv).then((code) => { process.exitCode = code; });
