'use strict';
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');

// Blocks that several scripts carry (pasted alone, a script cannot load another) must be the same
// text wherever they appear in shell/, and every script says what the article's era did with its
// writes and what the kit does (the Writes: header field).
const SHELL = path.resolve(__dirname, '..', '..');
const BLOCKS = ['unacknowledged writes', 'update plan'];

/** The text of a `// --- name ...` … `// --- end name ---` block in a script, or null. */
function sharedBlock(source, name) {
  const m = new RegExp(`// --- ${name}[^\\n]*\\n[\\s\\S]*?// --- end ${name} ---`).exec(source);
  return m ? m[0] : null;
}

function everyScript() {
  return fs.readdirSync(SHELL, { withFileTypes: true }).filter((e) => e.isDirectory())
    .flatMap((e) => fs.readdirSync(path.join(SHELL, e.name)).filter((f) => f.endsWith('.js') && f !== 'sql-baseline.js').map((f) => path.join(SHELL, e.name, f)));
}

function sharedBlocksHeldEqual(dir) {
  const mine = fs.readdirSync(dir).filter((f) => f.endsWith('.js') && f !== 'sql-baseline.js');
  describe('blocks shared with other scenarios\' scripts', () => {
    for (const name of BLOCKS) {
      it(`"${name}" is the same text in every script that carries it`, () => {
        const copies = everyScript().map((file) => [path.relative(SHELL, file), sharedBlock(fs.readFileSync(file, 'utf8'), name)]).filter(([, b]) => b);
        for (const file of mine) {
          const own = sharedBlock(fs.readFileSync(path.join(dir, file), 'utf8'), name);
          if (!own) continue;
          for (const [other, text] of copies) assert.equal(own, text, `${file} and ${other} differ in "${name}"`);
        }
      });
    }
    it('no script drops its database: the kit\'s ownership mark lives there, and a readWrite user may not', () => {
      for (const file of mine) assert.doesNotMatch(fs.readFileSync(path.join(dir, file), 'utf8'), /dropDatabase\(/, file);
    });
    it('every script says what the era did with its writes (Writes:)', () => {
      for (const file of mine) {
        const head = fs.readFileSync(path.join(dir, file), 'utf8').split('\n').slice(0, 60).join('\n');
        assert.match(head, /^\/\/ Writes: {3}\S/m, `${file} has no Writes: field in its header`);
      }
    });
  });
}

describe('embedded-comments scripts', () => {
  sharedBlocksHeldEqual(path.resolve(__dirname, '..'));
});
