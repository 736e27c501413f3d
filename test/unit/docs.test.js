'use strict';
// The generated parts of the documentation stay in step with their sources: each article README's
// findings with its published.json, docs/configuration.md with config.js's list of variables.
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { ROOT } = require('../../orchestrator/config');
const { generatedBlocks, replaceBlock, renderFindings, renderFinding, BEGIN, END } = require('../../orchestrator/docs');

describe('generated documentation', () => {
  for (const { file, name, body } of generatedBlocks(ROOT)) {
    it(`${path.relative(ROOT, file)}'s '${name}' block is what its source gives (node scripts/docs.js rewrites it)`, () => {
      const text = fs.readFileSync(file, 'utf8');
      assert.equal(text, replaceBlock(text, name, body), `${path.relative(ROOT, file)} is out of step: run node scripts/docs.js`);
    });
  }

  it('every article README carries a findings block, and every finding in it', () => {
    const scenarios = fs.readdirSync(path.join(ROOT, 'shell')).filter((s) => fs.existsSync(path.join(ROOT, 'shell', s, 'published.json')));
    assert.ok(scenarios.length >= 5);
    for (const scenario of scenarios) {
      const text = fs.readFileSync(path.join(ROOT, 'shell', scenario, 'README.md'), 'utf8');
      const published = JSON.parse(fs.readFileSync(path.join(ROOT, 'shell', scenario, 'published.json'), 'utf8'));
      for (const finding of published.findings) assert.ok(text.includes(`\`${finding.id}\``), `${scenario}: ${finding.id}`);
    }
  });

  it('a changed rule makes the block differ (the check can fail)', () => {
    const published = JSON.parse(fs.readFileSync(path.join(ROOT, 'shell', 'many-keys', 'published.json'), 'utf8'));
    const text = fs.readFileSync(path.join(ROOT, 'shell', 'many-keys', 'README.md'), 'utf8');
    published.findings[0].decidedBy = 'holds when pigs fly';
    assert.notEqual(replaceBlock(text, 'findings', renderFindings(published)), text);
  });

  it('prints a finding\'s clock where published.json gives one', () => {
    const text = renderFinding({
      id: 'x', claim: 'c', published: 'p', decidedBy: 'd',
      clock: { decides: 'appliedMs', article: 'ms', why: 'w:0 sends say nothing of the server.' },
    });
    assert.match(text, /\*\*Clock:\*\* decided on `appliedMs`; the article's clock is `ms`\. w:0 sends say nothing of the server\./);
    assert.doesNotMatch(renderFinding({ id: 'x', claim: 'c', published: 'p', decidedBy: 'd' }), /Clock/);
  });

  it('a file without the markers is an error, not a silent pass', () => {
    assert.throws(() => replaceBlock('no markers here', 'findings', 'x'), /no 'findings' block/);
    assert.equal(replaceBlock(`a\n${BEGIN('n')}\nold\n${END('n')}\nb`, 'n', 'new'), `a\n${BEGIN('n')}\nnew\n${END('n')}\nb`);
  });
});
