'use strict';
// What summary.md and report.html both say is held as blocks (orchestrator/report/blocks.js) and
// written in each form: the kit's words as they are, a run's words as text in both (never markup),
// and the same structure (a paragraph's lines, a list under its line, a table) in each.
const assert = require('node:assert/strict');
const { blocksMarkdown, blocksHtml } = require('../../orchestrator/report/blocks');

describe('blocks: one text, written as markdown and as HTML', () => {
  const planted = '**pbold** <b>x</b> [plink](https://example.invalid)';
  const blocks = [
    { lines: [[{ say: 'Timings taken in ' }, { strong: ['kit shell'] }, { say: '; ' }, { code: '--shell mongosh' }], [{ say: 'Server: ' }, planted]] },
    { lead: [{ em: 'actual' }, { say: ' is what the steps took:' }], list: [[planted], [{ say: 'two' }]] },
    { table: { header: ['server', 'ms'], rows: [[planted, '1.5']] } },
    { table: { header: ['a', 'b'], rows: [['x', 'y']] }, align: ['left', 'right'] },
  ];

  it('writes markdown with the kit\'s markup and a run\'s words escaped', () => {
    assert.equal(blocksMarkdown(blocks), [
      'Timings taken in **kit shell**; `--shell mongosh`\nServer: \\*\\*pbold\\*\\* \\<b\\>x\\</b\\> [plink\\](https\\://example.invalid)',
      '*actual* is what the steps took:\n- \\*\\*pbold\\*\\* \\<b\\>x\\</b\\> [plink\\](https\\://example.invalid)\n- two',
      '| server | ms |\n| --- | ---: |\n| \\*\\*pbold\\*\\* \\<b\\>x\\</b\\> [plink\\](https\\://example.invalid) | 1.5 |',
      '| a | b |\n|---|---:|\n| x | y |',
    ].join('\n\n'));
  });

  it('writes HTML with the same structure, a run\'s words as text', () => {
    const html = blocksHtml(blocks);
    assert.match(html, /^<p>Timings taken in <strong>kit shell<\/strong>; <code>--shell mongosh<\/code><br>Server: \*\*pbold\*\* &lt;b&gt;x&lt;\/b&gt; \[plink\]\(https:\/\/example\.invalid\)<\/p>/);
    assert.match(html, /<p><em>actual<\/em> is what the steps took:<\/p><ul><li>\*\*pbold\*\* &lt;b&gt;/);
    assert.match(html, /<td>\*\*pbold\*\* &lt;b&gt;x&lt;\/b&gt; \[plink\]\(https:\/\/example\.invalid\)<\/td><td>1\.5<\/td>/);
    assert.doesNotMatch(html, /<a |<b>/);
  });
});
