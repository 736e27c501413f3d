'use strict';
// The generic suites (faults, signals, resume, seeds, repeats, reports, users' servers) run the
// tiny fixture scenario under test/fixtures/shell, selected as a user would select another
// folder of scenarios (CLASSICS_SHELL_DIR), so they take seconds and name no article.
const path = require('node:path');
const { discoverScenarios } = require('../../orchestrator/scenarios');
const { invokeOrchestrate } = require('./cli');

const FIXTURE_SHELL_DIR = path.resolve(__dirname, '..', 'fixtures', 'shell');
/** A fixture apart, which only the paired-servers suite runs: trade-candles' scripts, paired across two FerretDB servers. */
const PAIRED_FIXTURE_SHELL_DIR = path.resolve(__dirname, '..', 'fixtures', 'paired-shell');
const [fixture] = discoverScenarios(FIXTURE_SHELL_DIR);

/** Runs the orchestrate binary over the fixture scenarios, as invokeOrchestrate does. */
function invokeOnFixture(args, { env = {}, ...rest } = {}) {
  return invokeOrchestrate(args, { env: { CLASSICS_SHELL_DIR: FIXTURE_SHELL_DIR, ...env }, ...rest });
}

module.exports = { fixture, invokeOnFixture, FIXTURE_SHELL_DIR, PAIRED_FIXTURE_SHELL_DIR };
