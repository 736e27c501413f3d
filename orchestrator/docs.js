'use strict';
// The parts of the documentation that are data elsewhere, written from that data so they cannot
// drift: each article README's findings (from its published.json) and docs/configuration.md (from
// the one list of variables in config.js, the list `orchestrate config` prints). A generated part
// sits between two markers; the text around it is written by hand. `node scripts/docs.js` writes
// them, `--check` says which differ, and test/unit/docs.test.js fails while any does.
const fs = require('node:fs');
const path = require('node:path');
const { VARIABLES, ROOT } = require('./config');
const { ruleText } = require('./analysis/rule-words');
const { ClassicsError } = require('./errors');
const { decidesByMeasurement } = require('./analysis/checks');

const BEGIN = (name) => `<!-- generated: ${name} (node scripts/docs.js); edit the source, not this block -->`;
const END = (name) => `<!-- end generated: ${name} -->`;

/** text with the block named `name` replaced by `body`; throws where the markers are missing. */
function replaceBlock(text, name, body) {
  const begin = BEGIN(name);
  const end = END(name);
  const from = text.indexOf(begin);
  const to = text.indexOf(end);
  if (from < 0 || to < from) throw new ClassicsError(`no '${name}' block (the markers ${begin} … ${end})`);
  return `${text.slice(0, from + begin.length)}\n${body.trimEnd()}\n${text.slice(to)}`;
}

const asList = (value) => (value === undefined ? [] : [].concat(value));

/** One finding in markdown: the claim, the article's figure, what it claimed, how it is decided, its rule's bands (from its thresholds), what it needs, its clock. */
function renderFinding(finding) {
  const own = finding.source === 'kit';
  const lines = [`### ${own ? 'The kit\'s question' : 'Finding'}: ${finding.claim}`, ''];
  lines.push(`- **id:** \`${finding.id}\``);
  lines.push(`- **${own ? 'Compared with' : 'The article'}:** ${finding.published}`);
  if (finding.reasoning) lines.push(`- **${own ? 'Why this rule' : 'What it claimed'}:** ${finding.reasoning}`);
  lines.push(`- **Decided by:** ${finding.decidedBy}`);
  const rule = decidesByMeasurement(finding) ? ruleText(finding) : '';
  if (rule) lines.push(`- **Rule:** ${rule}`);
  for (const need of asList(finding.requires)) {
    if (need.else) lines.push(`- **Where it cannot be tested, the verdict says:** ${need.else}`);
  }
  if (finding.driftMechanism) {
    const { slows, onScan, text } = finding.driftMechanism;
    lines.push(`- **A drift over the rounds:** where the ${Object.values(slows).join(' ')} side slows round by round${onScan ? ' on a server that reads every document to find one' : ''}, the verdict says so as the finding's mechanism, not as the machine drifting: ${text}`);
  }
  if (finding.clock) {
    const { decides, article, why } = finding.clock;
    const parts = [];
    if (decides) parts.push(`decided on \`${decides}\``);
    if (article) parts.push(`the article's clock is \`${article}\``);
    lines.push(`- **Clock:** ${parts.join('; ')}${why ? `. ${why}` : ''}`);
  }
  return lines.join('\n');
}

/** The findings block of one article README, from its published.json. */
function renderFindings(published) {
  const findings = published.findings || [];
  const head = [
    `${findings.length} finding${findings.length === 1 ? '' : 's'}, from \`published.json\`.`,
    `The article ran on ${published.server}; its machine: ${published.machine}.`,
  ];
  return [head.join(' '), '', ...findings.map(renderFinding).flatMap((f) => [f, ''])].join('\n');
}

const cell = (text) => String(text).replace(/\|/g, '\\|');

/** docs/configuration.md's table: every variable a user may set, in config.js's words. */
function renderConfiguration(variables = VARIABLES) {
  const rows = variables.filter((v) => !v.internal)
    .map((v) => `| \`${v.name}\` | ${cell(v.doc)} | ${cell(v.shown || String(v.default))} |`);
  const internal = variables.filter((v) => v.internal).map((v) => `- \`${v.name}\`: ${v.doc}`);
  return ['| variable | what it sets | default |', '|---|---|---|', ...rows, '',
    'Set by the kit for the processes it starts, never by you:', '', ...internal].join('\n');
}

/** Every generated file: [{ file, name, body }], from the tree under root. */
function generatedBlocks(root = ROOT) {
  const blocks = [{ file: path.join(root, 'docs', 'configuration.md'), name: 'variables', body: renderConfiguration() }];
  const shellDir = path.join(root, 'shell');
  for (const scenario of fs.readdirSync(shellDir).sort()) {
    const published = path.join(shellDir, scenario, 'published.json');
    if (!fs.existsSync(published)) continue;
    blocks.push({
      file: path.join(shellDir, scenario, 'README.md'),
      name: 'findings',
      body: renderFindings(JSON.parse(fs.readFileSync(published, 'utf8'))),
    });
  }
  return blocks;
}

/** Writes every block (or, with check, writes nothing); returns the files that were out of step. */
function writeDocs({ root = ROOT, check = false } = {}) {
  const stale = [];
  for (const { file, name, body } of generatedBlocks(root)) {
    const text = fs.readFileSync(file, 'utf8');
    const next = replaceBlock(text, name, body);
    if (next === text) continue;
    stale.push(path.relative(root, file));
    if (!check) fs.writeFileSync(file, next);
  }
  return stale;
}

module.exports = { replaceBlock, renderFinding, renderFindings, renderConfiguration, generatedBlocks, writeDocs, BEGIN, END };
