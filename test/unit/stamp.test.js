'use strict';
// The blocks the scripts share live once, in shell/_blocks/, and are stamped into each script by
// `npm run stamp`. These run the command itself, as CI does: on this tree `--check` passes (so
// npm test fails on a copy edited by hand), and on a copy of a script in a tree of its own an
// edited stamped line, an edited source or a broken marker each make it fail, one line each.
const assert = require('node:assert/strict');
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { stampTree, markedBlocks, startMarker, endMarker } = require('../../scripts/stamp');

const ROOT = path.resolve(__dirname, '..', '..');
const STAMP = path.join(ROOT, 'scripts', 'stamp.js');

/** node scripts/stamp.js with args: { status, stdout, stderr }. */
function stamp(...args) {
  const r = spawnSync(process.execPath, [STAMP, ...args], { encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** The stamped copies in this tree: { blockName: ['scenario/script', …] }. */
function copiesInTree() {
  const copies = {};
  const shell = path.join(ROOT, 'shell');
  for (const dir of fs.readdirSync(shell).filter((d) => !d.startsWith('_'))) {
    for (const file of fs.readdirSync(path.join(shell, dir)).filter((f) => f.endsWith('.js'))) {
      const { blocks } = markedBlocks(fs.readFileSync(path.join(shell, dir, file), 'utf8').split('\n'));
      for (const b of blocks) (copies[b.name] ??= []).push(`${dir}/${file}`);
    }
  }
  return copies;
}

describe('npm run stamp: each shared block kept once', () => {
  it('--check passes on this tree: every stamped copy is its source, line for line', () => {
    const r = stamp('--check');
    assert.equal(r.status, 0, r.stdout + r.stderr);
    assert.equal(r.stdout, 'every stamped block is in step with its source\n');
  });

  it('finds the copies it checks (the unacknowledged writes block in six scripts, the paired rounds block in six), and a source for each', () => {
    const copies = copiesInTree();
    assert.equal(copies['unacknowledged-writes']?.length, 6, JSON.stringify(copies));
    assert.equal(copies['paired-rounds']?.length, 6, JSON.stringify(copies));
    const sources = fs.readdirSync(path.join(ROOT, 'shell', '_blocks')).filter((f) => f.endsWith('.js')).map((f) => f.slice(0, -3)).sort();
    assert.deepEqual(Object.keys(copies).sort(), sources);
    for (const [name, scripts] of Object.entries(copies)) assert.ok(scripts.length >= 2, `${name} is shared: ${scripts.join(', ')}`);
  });

  describe('on a copy of a script in a tree of its own', () => {
    const SCRIPT = path.join('shell', 'many-keys', 'update.js');
    let root;
    let original;
    const script = () => path.join(root, SCRIPT);
    const read = () => fs.readFileSync(script(), 'utf8');
    const write = (text) => fs.writeFileSync(script(), text);
    /** The index of a line well inside a stamped block of the script (not a marker). */
    const lineInside = (name) => {
      const { blocks } = markedBlocks(read().split('\n'));
      const b = blocks.find((x) => x.name === name);
      return Math.floor((b.start + b.end) / 2);
    };

    beforeEach(() => {
      root = fs.mkdtempSync(path.join(os.tmpdir(), 'classics-stamp-'));
      original = fs.readFileSync(path.join(ROOT, SCRIPT), 'utf8');
      fs.mkdirSync(path.dirname(script()), { recursive: true });
      fs.writeFileSync(script(), original);
      // the sources this script carries, and no other (a source no script carries is a problem of its own)
      fs.mkdirSync(path.join(root, 'shell', '_blocks'));
      for (const b of markedBlocks(original.split('\n')).blocks) {
        fs.copyFileSync(path.join(ROOT, 'shell', '_blocks', `${b.name}.js`), path.join(root, 'shell', '_blocks', `${b.name}.js`));
      }
    });
    afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

    it('passes the copy as it is', () => {
      const r = stamp('--check', '--root', root);
      assert.equal(r.status, 0, r.stdout + r.stderr);
    });

    it('fails when one stamped line is edited by hand, naming the script, the line and the block\'s source in one line; npm run stamp puts the source back', () => {
      const lines = read().split('\n');
      const i = lineInside('unacknowledged-writes');
      lines[i] = `${lines[i]} // a fix made here`;
      write(lines.join('\n'));
      const r = stamp('--check', '--root', root);
      assert.equal(r.status, 1);
      assert.equal(r.stdout, `shell/many-keys/update.js:${i + 1}: block unacknowledged-writes differs from shell/_blocks/unacknowledged-writes.js (edit the source, then npm run stamp)\n`);
      assert.equal(r.stderr, '');
      assert.notEqual(read(), original, '--check writes nothing');

      const w = stamp('--root', root);
      assert.equal(w.status, 0, w.stdout + w.stderr);
      assert.equal(w.stdout, 'shell/many-keys/update.js: block unacknowledged-writes stamped from shell/_blocks/unacknowledged-writes.js\n');
      assert.equal(read(), original);
      assert.equal(stamp('--check', '--root', root).status, 0);
    });

    it('fails on a line added to a block or a line taken out of one', () => {
      const lines = read().split('\n');
      const i = lineInside('paired-rounds');
      const changed = () => stampTree({ root, check: true }).changed.map((c) => `${c.file} ${c.name} ${c.line}`);
      write([...lines.slice(0, i), '  var extra = 1;', ...lines.slice(i)].join('\n'));
      assert.deepEqual(changed(), [`shell/many-keys/update.js paired-rounds ${i + 1}`]);
      write([...lines.slice(0, i), ...lines.slice(i + 1)].join('\n'));
      assert.deepEqual(changed(), [`shell/many-keys/update.js paired-rounds ${i + 1}`]);
    });

    it('names every copy when the source changes, and stamps the change into each', () => {
      fs.mkdirSync(path.join(root, 'shell', 'other'));
      fs.writeFileSync(path.join(root, 'shell', 'other', 'a.js'), `var before = 1;\n${startMarker('update-plan')}\n${endMarker('update-plan')}\nvar after = 2;\n`);
      const source = path.join(root, 'shell', '_blocks', 'update-plan.js');
      fs.appendFileSync(source, '// a line added to the source\n');
      assert.deepEqual(stampTree({ root, check: true }).changed.map((c) => c.file), ['shell/many-keys/update.js', 'shell/other/a.js']);
      assert.deepEqual(stampTree({ root }).problems, []);
      assert.equal(fs.readFileSync(path.join(root, 'shell', 'other', 'a.js'), 'utf8'),
        `var before = 1;\n${startMarker('update-plan')}\n${fs.readFileSync(source, 'utf8')}${endMarker('update-plan')}\nvar after = 2;\n`);
      assert.equal(stampTree({ root, check: true }).changed.length, 0);
    });

    it('names a start marker without its end, a block with no source and a source no script carries, writing nothing', () => {
      write(read().replace(`${endMarker('update-plan')}\n`, ''));
      const broken = read();
      fs.writeFileSync(path.join(root, 'shell', '_blocks', 'orphan.js'), '// nobody stamps me\n');
      const r = stamp('--check', '--root', root);
      assert.equal(r.status, 1);
      assert.match(r.stdout, /^shell\/many-keys\/update\.js:\d+: block paired-rounds starts inside block update-plan \(from line \d+\)$/m);
      assert.match(r.stdout, /^shell\/_blocks\/orphan\.js: stamped into no script/m);
      assert.equal(stamp('--root', root).status, 1, 'a broken script is not stamped');
      assert.equal(read(), broken);

      fs.appendFileSync(path.join(root, 'shell', '_blocks', 'update-plan.js'), `${endMarker('update-plan')}\n`);
      assert.match(stamp('--check', '--root', root).stdout, /^shell\/_blocks\/update-plan\.js: holds a block marker line of its own$/m);

      write(original.replace(/block: paired-rounds\b/g, 'block: paired-turns'));
      assert.match(stamp('--check', '--root', root).stdout, /^shell\/many-keys\/update\.js:\d+: block paired-turns has no source \(shell\/_blocks\/paired-turns\.js\)$/m);
    });

    it('says a bad option or a missing tree in one line, exit 2, no stack trace', () => {
      const bad = stamp('--chek');
      assert.equal(bad.status, 2);
      assert.equal(bad.stderr.trim().split('\n').length, 1, bad.stderr);
      assert.doesNotMatch(bad.stderr, /\n\s+at /);
      const none = stamp('--check', '--root', path.join(root, 'nowhere'));
      assert.equal(none.status, 2);
      assert.match(none.stderr, /^stamp: no shell\/ folder under .*nowhere\n$/);
    });
  });
});
