#!/usr/bin/env node
'use strict';
// Stamps the blocks the mongosh scripts share. A script pasted into mongosh cannot load another
// file, so each script holds its own copy of every block it needs; the block itself lives once,
// in shell/_blocks/<name>.js, and this command writes it into every script that carries it,
// between marker lines:
//
//   // <<< block: <name> (stamped by npm run stamp from shell/_blocks/<name>.js; edit there)
//   …the source file, line for line…
//   // >>> block: <name>
//
// `--check` writes nothing and exits 1 with one line for each copy that differs from its source
// (CI runs it), as scripts/docs.js does for the generated documentation. A script names the
// blocks it carries by its markers alone; a source no script carries is a problem too.
const fs = require('node:fs');
const path = require('node:path');
const { Command, CommanderError } = require('commander');
const { writeFileAtomic } = require('../orchestrator/fs-atomic');

const ROOT = path.resolve(__dirname, '..');
/** The folder of the blocks' sources, under shell/: no article (no scenario.json, and a name with _). */
const BLOCKS_FOLDER = '_blocks';
const START = /^\/\/ <<< block: ([a-z0-9-]+)(?: .*)?$/;
const END = /^\/\/ >>> block: ([a-z0-9-]+)$/;
/** Any line that means to be a marker, read or not. */
const MARKER = /^\/\/ (<<<|>>>) block\b/;

const startMarker = (name) => `// <<< block: ${name} (stamped by npm run stamp from shell/${BLOCKS_FOLDER}/${name}.js; edit there)`;
const endMarker = (name) => `// >>> block: ${name}`;

/**
 * The stamped blocks of a script's text: { blocks: [{ name, start, end }] (the marker lines'
 * indexes), problems: [line's words] }. Markers must pair up, one block at a time.
 */
function markedBlocks(lines) {
  const blocks = [];
  const problems = [];
  let open = null;
  lines.forEach((line, i) => {
    const start = START.exec(line);
    const end = END.exec(line);
    if (start) {
      if (open) problems.push(`${i + 1}: block ${start[1]} starts inside block ${open.name} (from line ${open.start + 1})`);
      open = { name: start[1], start: i };
    } else if (end) {
      if (!open) problems.push(`${i + 1}: block ${end[1]} ends but never started`);
      else if (end[1] !== open.name) problems.push(`${i + 1}: block ${end[1]} ends where block ${open.name} (from line ${open.start + 1}) is open`);
      else blocks.push({ ...open, end: i });
      open = null;
    } else if (MARKER.test(line)) {
      problems.push(`${i + 1}: a marker the stamp cannot read: ${line.slice(0, 80)}`);
    }
  });
  if (open) problems.push(`${open.start + 1}: block ${open.name} has no end marker (${endMarker(open.name)})`);
  return { blocks, problems };
}

/** The text of block `name` as stamped in a script's text (its source's text); throws where absent. */
function stampedBlock(text, name) {
  const lines = text.split('\n');
  const block = markedBlocks(lines).blocks.find((b) => b.name === name);
  if (!block) throw new Error(`no stamped block ${name}`);
  return `${lines.slice(block.start + 1, block.end).join('\n')}\n`;
}

/** The scripts that may carry blocks: every .js file of every folder under shell/ but the sources' (links left out: they point at one). */
function scriptFiles(shellDir) {
  return fs.readdirSync(shellDir, { withFileTypes: true })
    .filter((e) => e.isDirectory() && e.name !== BLOCKS_FOLDER)
    .flatMap((e) => fs.readdirSync(path.join(shellDir, e.name), { withFileTypes: true })
      .filter((f) => f.isFile() && f.name.endsWith('.js'))
      .map((f) => path.join(shellDir, e.name, f.name)))
    .sort();
}

/** { name: text } of every source in shell/_blocks/. */
function blockSources(shellDir) {
  const dir = path.join(shellDir, BLOCKS_FOLDER);
  if (!fs.existsSync(dir)) return {};
  return Object.fromEntries(fs.readdirSync(dir).filter((f) => f.endsWith('.js')).sort()
    .map((f) => [f.slice(0, -3), fs.readFileSync(path.join(dir, f), 'utf8')]));
}

/**
 * Every script stamped from its sources (check: nothing written). Returns { changed: [{ file,
 * name, line }] (each copy that differed, and its first line that did), problems: [a line each] },
 * files relative to root. A script with a broken marker is left as it is.
 */
function stampTree({ root = ROOT, check = false } = {}) {
  const shellDir = path.join(root, 'shell');
  const rel = (file) => path.relative(root, file);
  const sources = blockSources(shellDir);
  const carried = new Set();
  const changed = [];
  const problems = [];
  for (const [name, source] of Object.entries(sources)) {
    // a marker inside a source would end or nest its block once stamped: it is stamped nowhere
    if (source.split('\n').some((line) => MARKER.test(line))) {
      problems.push(`shell/${BLOCKS_FOLDER}/${name}.js: holds a block marker line of its own`);
      delete sources[name];
      carried.add(name);
    }
  }
  for (const file of scriptFiles(shellDir)) {
    const text = fs.readFileSync(file, 'utf8');
    const lines = text.split('\n');
    const marked = markedBlocks(lines);
    problems.push(...marked.problems.map((p) => `${rel(file)}:${p}`));
    if (marked.problems.length || !marked.blocks.length) continue;
    const out = [];
    let from = 0;
    for (const block of marked.blocks) {
      carried.add(block.name);
      out.push(...lines.slice(from, block.start));
      from = block.end + 1;
      const source = sources[block.name];
      if (source === undefined) {
        problems.push(`${rel(file)}:${block.start + 1}: block ${block.name} has no source (shell/${BLOCKS_FOLDER}/${block.name}.js)`);
        out.push(...lines.slice(block.start, block.end + 1));
        continue;
      }
      const stamped = [startMarker(block.name), ...source.replace(/\n$/, '').split('\n'), endMarker(block.name)];
      const copy = lines.slice(block.start, block.end + 1);
      const firstDiff = stamped.findIndex((line, i) => line !== copy[i]);
      if (firstDiff >= 0 || copy.length !== stamped.length) {
        changed.push({ file: rel(file), name: block.name, line: block.start + 1 + (firstDiff >= 0 ? firstDiff : Math.min(copy.length, stamped.length)) });
      }
      out.push(...stamped);
    }
    out.push(...lines.slice(from));
    const result = out.join('\n');
    if (!check && result !== text) writeFileAtomic(file, result);
  }
  for (const name of Object.keys(sources)) {
    if (!carried.has(name)) problems.push(`shell/${BLOCKS_FOLDER}/${name}.js: stamped into no script (a script carries it between ${startMarker(name).split(' (')[0]} and ${endMarker(name)})`);
  }
  return { changed, problems };
}

/** The command line: one line per copy out of step or problem; exit 0, 1 (out of step, a problem) or 2 (bad usage). */
function main(argv = process.argv) {
  const program = new Command('stamp')
    .description('stamp each shared block of the scripts from its source in shell/_blocks/')
    .option('--check', 'write nothing; exit 1 naming each copy that differs from its source')
    .option('--root <dir>', 'the checkout to stamp', ROOT)
    .exitOverride()
    // commander's error and its suggestion, in one line
    .configureOutput({ writeErr: (s) => process.stderr.write(`${s.replace(/^error: /, 'stamp: ').trim().replace(/\n+/g, ' ')}\n`) });
  try {
    program.parse(argv);
  } catch (err) {
    if (err instanceof CommanderError && err.exitCode === 0) return 0;
    return 2;
  }
  const { check, root } = program.opts();
  if (!fs.existsSync(path.join(root, 'shell'))) {
    console.error(`stamp: no shell/ folder under ${root}`);
    return 2;
  }
  let changed;
  let problems;
  try {
    ({ changed, problems } = stampTree({ root: path.resolve(root), check }));
  } catch (err) {
    console.error(`stamp: ${err.message}`);
    return 2;
  }
  for (const c of changed) {
    console.log(check
      ? `${c.file}:${c.line}: block ${c.name} differs from shell/${BLOCKS_FOLDER}/${c.name}.js (edit the source, then npm run stamp)`
      : `${c.file}: block ${c.name} stamped from shell/${BLOCKS_FOLDER}/${c.name}.js`);
  }
  for (const p of problems) console.log(p);
  if (!changed.length && !problems.length) console.log('every stamped block is in step with its source');
  return problems.length || (check && changed.length) ? 1 : 0;
}

if (require.main === module) process.exitCode = main();

module.exports = { stampTree, stampedBlock, markedBlocks, startMarker, endMarker, BLOCKS_FOLDER };
