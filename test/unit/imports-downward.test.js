'use strict';
// The layers run one way: a server launcher and the process bookkeeping below the run that uses
// them, the comparison's analysis below its views, and compare's views over the Comparison alone.
// Each file's require() calls are resolved and held against the folders it must not reach.
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');

const ORCHESTRATOR = path.resolve(__dirname, '../../orchestrator');

/** The kit's own files a file requires, as paths under orchestrator/ ("run/progress.js"). */
function kitRequires(file) {
  const text = fs.readFileSync(path.join(ORCHESTRATOR, file), 'utf8');
  return [...text.matchAll(/require\('(\.{1,2}\/[^']+)'\)/g)]
    .map(([, spec]) => require.resolve(path.resolve(path.dirname(path.join(ORCHESTRATOR, file)), spec)))
    .map((resolved) => path.relative(ORCHESTRATOR, resolved));
}

/** Every file of `files` that reaches into one of `above`, with what it requires there. */
function upward(files, above) {
  return files.flatMap((file) => kitRequires(file).filter((r) => above.some((dir) => r.startsWith(dir))).map((r) => `${file} → ${r}`));
}

const filesIn = (dir) => fs.readdirSync(path.join(ORCHESTRATOR, dir)).filter((f) => f.endsWith('.js')).map((f) => `${dir}/${f}`);

describe('imports run downward', () => {
  it('the servers and the process bookkeeping import nothing of the run, the commands or the views', () => {
    const below = [...filesIn('servers'), 'processes.js', 'run-state.js', 'watchdog.js', 'process-table.js'];
    assert.deepEqual(upward(below, ['run/', 'commands/', 'report/', 'export/']), []);
  });

  it('the comparison imports no view, and no view reads a run or judges one (compare\'s included)', () => {
    assert.deepEqual(upward(['analysis/comparison.js'], ['report/', 'export/', 'commands/']), []);
    // the views reach the analysis for words and rules (verdict-words, rule-words, rules), never
    // for a run's records or a decision: those are the model's, made once before any view runs
    const judging = ['results/', 'analysis/judge.js', 'analysis/analyse.js', 'analysis/comparison.js', 'analysis/change.js'];
    assert.deepEqual(upward([...filesIn('report'), ...filesIn('export')], judging), []);
  });
});
