'use strict';
// A script pasted alone cannot load another, so a block several scripts need is copied into each,
// marked `// --- name ...` … `// --- end name ---`: every copy must be the same text, in every
// scenario's scripts (shell/ and the fixtures), whichever names the blocks carry. Every script
// leaves its database in place (the kit's ownership mark lives there, and a readWrite user may
// not drop it). Blocks within one scenario are also declared in its scenario.json (sharedBlocks).
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { resolveConfig } = require('../../orchestrator/config');
const { FIXTURE_SHELL_DIR } = require('../helpers/fixture');

const SHELL_DIRS = [resolveConfig().shellDir, FIXTURE_SHELL_DIR];

/** Every mongosh script of every scenario folder (the SQL baseline is Node, not a script). */
function everyScript() {
  return SHELL_DIRS.flatMap((root) => fs.readdirSync(root, { withFileTypes: true }).filter((e) => e.isDirectory())
    .flatMap((e) => fs.readdirSync(path.join(root, e.name)).filter((f) => f.endsWith('.js') && f !== 'sql-baseline.js')
      .map((f) => ({ file: path.join(root, e.name, f), name: `${e.name}/${f}` }))));
}

/** { blockName: [{ script, text }] } for every marked block of every script. */
function markedBlocks(scripts) {
  const blocks = {};
  for (const { file, name } of scripts) {
    const source = fs.readFileSync(file, 'utf8');
    for (const [, block] of source.matchAll(/^\/\/ --- end (.+) ---$/gm)) {
      const m = new RegExp(`^// --- ${block.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}[^\\n]*\\n[\\s\\S]*?// --- end ${block.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} ---`, 'm').exec(source);
      (blocks[block] ??= []).push({ script: name, text: m ? m[0] : null });
    }
  }
  return blocks;
}

describe('blocks the scripts share', () => {
  const scripts = everyScript();
  const blocks = markedBlocks(scripts);

  it('finds the shared blocks (the unacknowledged writes one is in several scenarios)', () => {
    assert.ok((blocks['unacknowledged writes'] || []).length >= 4, Object.keys(blocks).join(', '));
  });

  for (const [block, copies] of Object.entries(blocks)) {
    it(`"${block}" is the same text in every script that carries it (${copies.map((c) => c.script).join(', ')})`, () => {
      for (const copy of copies) {
        assert.ok(copy.text, `${copy.script}: "${block}" has an end but no start`);
        assert.equal(copy.text, copies[0].text, `${copy.script} and ${copies[0].script} differ in "${block}"`);
      }
    });
  }

  it('no script drops its database', () => {
    for (const { file, name } of scripts) assert.doesNotMatch(fs.readFileSync(file, 'utf8'), /dropDatabase\(/, name);
  });
});
