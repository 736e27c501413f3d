'use strict';
// Walks every scenario folder (the articles' and the fixture's) through the one contract check
// the loader uses, and fails once with every broken rule listed (genny's workload linter collects
// all violations before it exits).
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { scenarioProblems, scenarioDirs, discoverScenarios } = require('../../orchestrator/scenarios');
const { resolveConfig } = require('../../orchestrator/config');
const { FIXTURE_SHELL_DIR, PAIRED_FIXTURE_SHELL_DIR } = require('../helpers/fixture');

// the churn fixture last: the check itself works on a copy of it
const dirs = [...scenarioDirs(resolveConfig().shellDir), ...scenarioDirs(PAIRED_FIXTURE_SHELL_DIR), ...scenarioDirs(FIXTURE_SHELL_DIR)];

describe('scenario folders', () => {
  it('finds the articles and the fixture', () => assert.ok(dirs.length >= 2));

  it('every folder honours the contract: descriptor, published data and findings, script headers, sizes', () => {
    const problems = dirs.flatMap((dir) => scenarioProblems(dir).map((p) => `${path.basename(dir)}: ${p}`));
    assert.deepEqual(problems, []);
  });

  it('no script drops its database (the kit\'s ownership mark lives there, and a readWrite user may not drop it)', () => {
    for (const dir of dirs) {
      for (const file of fs.readdirSync(dir).filter((f) => f.endsWith('.js'))) {
        assert.doesNotMatch(fs.readFileSync(path.join(dir, file), 'utf8'), /dropDatabase\(/, `${path.basename(dir)}/${file}`);
      }
    }
  });

  describe('the check itself', () => {
    let dir;
    beforeEach(() => {
      const root = fs.mkdtempSync(path.join(os.tmpdir(), 'classics-contract-'));
      dir = path.join(root, path.basename(dirs.at(-1)));
      fs.cpSync(dirs.at(-1), dir, { recursive: true });
    });
    afterEach(() => fs.rmSync(path.dirname(dir), { recursive: true, force: true }));
    const edit = (file, change) => {
      const p = path.join(dir, file);
      fs.writeFileSync(p, change(fs.readFileSync(p, 'utf8')));
    };

    it('passes an untouched copy', () => assert.deepEqual(scenarioProblems(dir), []));

    it('names a finding whose check the verdicts do not know, before anything runs', () => {
      edit('published.json', (t) => t.replace('"kind": "near"', '"kind": "neer"'));
      assert.match(scenarioProblems(dir).join('\n'), /check\.kind neer is not one the verdicts know/);
      const all = discoverScenarios(path.dirname(dir));
      assert.equal(all.length, 0);
      assert.match(all.broken[0].problem, /neer/);
    });

    it('names a script header field that is missing', () => {
      edit('pass.js', (t) => t.replace('// Writes:', '// Wrotes:'));
      assert.match(scenarioProblems(dir).join('\n'), /pass\.js: header lacks Writes:/);
    });

    it('names a script default that is not the article\'s size', () => {
      edit('setup.js', (t) => t.replace("var DOCS = 2001;", 'var DOCS = 2002;'));
      assert.match(scenarioProblems(dir).join('\n'), /setup\.js: DOCS defaults to 2002, sizes\.article has 2001/);
    });

    it('names a scaling declaration that leaves a size variable out, mistypes a step\'s work, or cites no finding', () => {
      edit('scenario.json', (t) => t.replace('"INSERTS": { "least": 2 } }', '"INSERTS": { "least": 2 }, "KEYS": {} }')
        .replace('"ops": "2 * DOCS"', '"ops": "2 * DOSC"')
        .replace('"findings": {}', '"findings": { "same-sped": { "atLeast": { "DOCS": 501 }, "why": "a typo" } }'));
      const text = scenarioProblems(dir).join('\n');
      assert.match(text, /scaling: KEYS is not a size variable of sizes\.article/);
      assert.match(text, /scaling: steps\.setup\.ops names DOSC, not a size variable/);
      assert.match(text, /scaling: findings\.same-sped: published\.json has no finding of that id/);
      edit('scenario.json', (t) => t.replace(', "INSERTS": { "least": 2 }, "KEYS": {} }', ' }'));
      assert.match(scenarioProblems(dir).join('\n'), /scaling: INSERTS is in neither vary nor fixed/);
    });

    it('names a scenario without a scaling declaration', () => {
      edit('scenario.json', (t) => t.replace('"scaling": {', '"scalling": {'));
      assert.match(scenarioProblems(dir).join('\n'), /^scaling is missing/m);
    });

    it('names a server declaration that cites no finding', () => {
      edit('scenario.json', (t) => t.replace('"engine-needed": "FerretDB', '"engine-neded": "FerretDB'));
      assert.match(scenarioProblems(dir).join('\n'), /servers\.ferretdb\.cannotTest names finding engine-neded/);
    });
  });
});
