'use strict';
// Configuration lives in one module and is documented from there: docs/configuration.md's table
// lists exactly the variables orchestrator/config.js reads, with the same defaults shown.
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { VARIABLES, resolveConfig, ROOT } = require('../../orchestrator/config');

function readmeTable() {
  const section = fs.readFileSync(path.join(ROOT, 'docs', 'configuration.md'), 'utf8');
  return section.split('\n').filter((l) => /^\| `[A-Z][A-Z0-9_]*` \|/.test(l)).map((l) => {
    const [name, doc, shown] = l.split('|').slice(1, -1).map((c) => c.trim());
    return { name: name.replace(/`/g, ''), doc, shown };
  });
}

describe('configuration', () => {
  it('docs/configuration.md lists every variable the kit reads, once, in config.js\'s words', () => {
    const expected = VARIABLES.filter((v) => !v.internal).map((v) => ({ name: v.name, doc: v.doc, shown: v.shown || String(v.default) }));
    assert.deepEqual(readmeTable(), expected);
  });

  it('reads each variable from the environment, else its default', () => {
    const config = resolveConfig({ CLASSICS_MONGOD_DOWNLOAD_TIMEOUT_MS: '5000', CLASSICS_MONGOD_START_TIMEOUT_MS: '7000', CLASSICS_SHELL_DIR: '/x' });
    assert.equal(config.mongodDownloadTimeoutMs, 5000);
    assert.equal(config.mongodStartTimeoutMs, 7000, 'the start has a budget of its own');
    assert.equal(config.shellDir, '/x');
    assert.equal(resolveConfig({}).mongodDownloadTimeoutMs, 600000);
    assert.equal(resolveConfig({}).mongodStartTimeoutMs, 60000);
  });

  it('no module but config.js spells the kit\'s database prefix or reads a CLASSICS_ variable', () => {
    const offenders = [];
    const walk = (dir) => fs.readdirSync(dir, { withFileTypes: true }).forEach((e) => {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) return walk(p);
      if (!p.endsWith('.js') || p.endsWith(path.join('orchestrator', 'config.js'))) return;
      const text = fs.readFileSync(p, 'utf8');
      // a shell script run by the kit keeps its own paste-alone default (the kit passes DB_NAME)
      if (text.startsWith('// mongo-classics ·')) return;
      if (/'classics_|env\.CLASSICS_|env\[.CLASSICS_/.test(text)) offenders.push(path.relative(ROOT, p));
    });
    walk(path.join(ROOT, 'orchestrator'));
    assert.deepEqual(offenders, []);
  });
});
