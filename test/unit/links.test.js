'use strict';
// Every relative link in the user's documentation resolves: README.md, docs/**/*.md and each
// shell/*/README.md. A link to a file must name a file in the tree; a link with #anchor must name
// a heading of the target (GitHub's slugs). Addresses (http:, mailto:) are not followed.
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { ROOT } = require('../../orchestrator/config');

// Files other branches of issue 25 and 26 bring, linked before they merge: the kept example's
// verdicts.png and first-screen screenshot (written when the lead re-renders it) and docs/setup.md
// (issue-25's). Named here, so that no other missing file passes; the last test below fails once
// one exists, so that its entry is removed.
const WRITTEN_AT_MERGE = new Set([
]);

function markdownFiles() {
  const files = [path.join(ROOT, 'README.md')];
  const walk = (dir) => {
    if (!fs.existsSync(dir)) return;
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.md')) files.push(p);
    }
  };
  walk(path.join(ROOT, 'docs'));
  for (const s of fs.readdirSync(path.join(ROOT, 'shell'))) {
    const readme = path.join(ROOT, 'shell', s, 'README.md');
    if (fs.existsSync(readme)) files.push(readme);
  }
  return files;
}

/** GitHub's anchor for a heading: lower case, punctuation but - and _ dropped, spaces to -. */
function slug(heading) {
  return heading.trim().toLowerCase()
    .replace(/<[^>]+>/g, '')
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

function anchorsOf(file) {
  const text = fs.readFileSync(file, 'utf8').replace(/```[\s\S]*?```/g, '');
  const seen = new Map();
  const anchors = new Set();
  for (const m of text.matchAll(/^#{1,6}\s+(.+?)\s*#*$/gm)) {
    const base = slug(m[1].replace(/`/g, ''));
    const n = seen.get(base) || 0;
    seen.set(base, n + 1);
    anchors.add(n ? `${base}-${n}` : base);
  }
  for (const m of text.matchAll(/<a\s+(?:name|id)="([^"]+)"/g)) anchors.add(m[1]);
  return anchors;
}

/** [{ target, line }] for each link outside code: [text](target) and ![alt](target). */
function linksOf(file) {
  const text = fs.readFileSync(file, 'utf8');
  const links = [];
  let inFence = false;
  text.split('\n').forEach((line, i) => {
    if (/^\s*```/.test(line)) { inFence = !inFence; return; }
    if (inFence) return;
    const bare = line.replace(/`[^`]*`/g, '');
    for (const m of bare.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) links.push({ target: m[1], line: i + 1 });
  });
  return links;
}

function problems(file) {
  const out = [];
  for (const { target, line } of linksOf(file)) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
    const [pathPart, anchor] = target.split('#');
    const resolved = pathPart ? path.resolve(path.dirname(file), decodeURIComponent(pathPart)) : file;
    const rel = path.relative(ROOT, resolved).split(path.sep).join('/');
    const where = `${path.relative(ROOT, file)}:${line}: ${target}`;
    if (rel.startsWith('..')) { out.push(`${where} (outside the repository)`); continue; }
    if (!fs.existsSync(resolved)) {
      if (!WRITTEN_AT_MERGE.has(rel)) out.push(`${where} (no such file)`);
      continue;
    }
    if (anchor && resolved.endsWith('.md') && !anchorsOf(resolved).has(anchor)) out.push(`${where} (no heading '#${anchor}')`);
  }
  return out;
}

describe('relative links in the documentation', () => {
  for (const file of markdownFiles()) {
    it(`every relative link in ${path.relative(ROOT, file)} resolves`, () => {
      assert.deepEqual(problems(file), []);
    });
  }

  it('the check can fail: a missing file and a missing heading are found', () => {
    const tmp = path.join(ROOT, 'docs', `.links-test-${process.pid}.md`);
    fs.mkdirSync(path.dirname(tmp), { recursive: true });
    fs.writeFileSync(tmp, '# Here\n\n[a](no-such-file.md) [b](#here) [c](#nowhere) `[d](in-code.md)`\n');
    try {
      assert.deepEqual(problems(tmp).map((p) => p.replace(/^.*?: /, '')), ['no-such-file.md (no such file)', '#nowhere (no heading \'#nowhere\')']);
    } finally {
      fs.unlinkSync(tmp);
    }
  });

  it('slugs headings as GitHub does', () => {
    assert.equal(slug('embedded-comments and many-keys at the article\'s size, on ferretdb2'), 'embedded-comments-and-many-keys-at-the-articles-size-on-ferretdb2');
    assert.equal(slug('MongoDB 8.2, 8.0 and 7.0'), 'mongodb-82-80-and-70');
  });

  it('names no file in its list of files to come that already exists (remove it from WRITTEN_AT_MERGE)', () => {
    assert.deepEqual([...WRITTEN_AT_MERGE].filter((f) => fs.existsSync(path.join(ROOT, f))), []);
  });
});
