'use strict';
// What this machine can run (orchestrator/capabilities.js), as `orchestrate config` lists it, and a
// SQL baseline that could not run: its reason, recorded by the run, is what the verdicts held
// against it say.
const assert = require('node:assert/strict');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { resolveConfig } = require('../../orchestrator/config');
const { capabilities } = require('../../orchestrator/capabilities');
const { discoverScenarios } = require('../../orchestrator/scenarios');
const { analyseScenario } = require('../../orchestrator/analysis/analyse');
const { UNTESTABLE } = require('../../orchestrator/analysis/rules');

const ROOT = path.resolve(__dirname, '..', '..');

describe('what this machine can run', function () {
  this.timeout(30000);

  it('says why the FerretDB kinds and the browser test are missing where their binaries are not', function () {
    const config = resolveConfig({ ...process.env, CLASSICS_FERRETDB_BIN: '/nonexistent/ferretdb', CLASSICS_CHROMIUM: '/nonexistent/chromium' });
    const byName = Object.fromEntries(capabilities(config).map((c) => [c.name, c]));
    assert.match(byName.ferretdb.missing, /FerretDB v1\.24\.0 is not built at \/nonexistent\/ferretdb .*Go 1\.21/);
    assert.match(byName['ferretdb-pg'].missing, /not built/);
    assert.match(byName['browser test'].missing, /no Chromium at \/nonexistent\/chromium/);
    for (const name of ['mongod', 'ferretdb', 'ferretdb-pg', 'ferretdb2']) assert.equal(byName[name].kind, 'server');
    for (const name of ['SQL baseline', 'compiled client', 'CJK font']) assert.equal(byName[name].kind, 'feature');
  });

  it('says what each feature is for from what the scenarios declare (a baseline module, an article in Chinese, Japanese or Korean), naming none itself', function () {
    const config = resolveConfig();
    const scenarios = discoverScenarios(config.shellDir);
    const byName = Object.fromEntries(capabilities(config, scenarios).map((c) => [c.name, c]));
    for (const s of scenarios.filter((x) => x.baseline)) assert.ok(byName['SQL baseline'].what.includes(s.name), byName['SQL baseline'].what);
    for (const s of scenarios.filter((x) => x.article.language === 'zh')) assert.ok(byName['CJK font'].what.includes(s.name), byName['CJK font'].what);
    const crafted = [
      { name: 'tally', baseline: { server: 'postgresql' }, article: { language: 'ja' } },
      { name: 'logs', article: { language: 'zh' } },
      { name: 'plain', article: { language: 'ru' } },
    ];
    const made = Object.fromEntries(capabilities(config, crafted).map((c) => [c.name, c.what]));
    assert.equal(made['SQL baseline'], 'tally\'s SQL side, on a private PostgreSQL cluster');
    assert.equal(made['CJK font'], 'report.html\'s Japanese and Chinese text (tally\'s and logs\' articles)');
    const none = Object.fromEntries(capabilities(config, [crafted[2]]).map((c) => [c.name, c.what]));
    assert.match(none['SQL baseline'], /no scenario has one/);
    assert.match(none['CJK font'], /no article is in one/);
  });

  it('orchestrate config lists each server kind and feature, and why one is missing', function () {
    const out = spawnSync(process.execPath, ['bin/orchestrate.js', 'config'], {
      cwd: ROOT, encoding: 'utf8', env: { ...process.env, CLASSICS_FERRETDB_BIN: '/nonexistent/ferretdb' },
    });
    assert.equal(out.status, 0, out.stderr);
    const lines = out.stdout.split('\n');
    for (const name of ['server mongod', 'server ferretdb', 'server ferretdb-pg', 'server ferretdb2', 'feature SQL baseline', 'feature browser test', 'feature compiled client', 'feature CJK font']) {
      assert.equal(lines.filter((l) => l.startsWith(`  ${name}, `)).length, 1, `${name}\n${out.stdout}`);
    }
    assert.match(lines.find((l) => l.startsWith('  server ferretdb, ')), /: no, because FerretDB v1\.24\.0 is not built at \/nonexistent\/ferretdb/);
  });

  it('a SQL baseline that could not run: the findings held against it cannot be tested here, and say why', function () {
    const { shellDir, root } = resolveConfig();
    const scenario = discoverScenarios(shellDir, root).find((s) => s.name === 'log-inserts');
    const why = 'PostgreSQL\'s server binaries are not installed (initdb and postgres)';
    const records = [
      { type: 'measurement', scenario: 'log-inserts', server: 'm', step: 'test1', test: 'test 1: one loop', method: 'save', ms: 500 },
      { type: 'measurement', scenario: 'log-inserts', server: 'postgresql', baselineFor: 'log-inserts', unavailable: why },
    ];
    const verdict = analyseScenario(scenario, { measurements: records }).verdicts.find((v) => v.finding === 'mongo-beats-sql-test1');
    assert.equal(verdict.server, 'm');
    assert.equal(verdict.status, UNTESTABLE);
    assert.deepEqual(verdict.reasons, [{ code: 'baseline-unavailable', server: 'postgresql', why }]);
  });
});
