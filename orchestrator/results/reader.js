'use strict';
// The one reader of results.jsonl. Every consumer (reports, verdicts, compare, resume, bench,
// tests) reads a run through readRun(), so the header, the servers and the end are found one way.
const fs = require('node:fs');
const path = require('node:path');
const { EJSON } = require('bson');
const { ResultsError } = require('../errors');
const { recordProblem, SCHEMA_VERSION } = require('../schemas');

const RESULTS_FILE = 'results.jsonl';

/**
 * Every complete record of a results file, with the line each was read from (lines). A line that
 * does not parse (a run killed in the middle of a write) is reported in `problems` and skipped,
 * so what is complete still renders.
 */
function readResults(file) {
  let text;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    throw new ResultsError(err.code === 'ENOENT' ? `no results at ${file}` : `cannot read ${file}: ${err.message}`);
  }
  const records = [];
  const lines = [];
  const problems = [];
  text.split('\n').forEach((line, i) => {
    if (!line.trim()) return;
    try {
      records.push(EJSON.parse(line, { relaxed: true }));
      lines.push(i + 1);
    } catch {
      problems.push(`line ${i + 1} is not complete JSON and was skipped`);
    }
  });
  if (!records.length) throw new ResultsError(`${file} holds no complete results`);
  return { records, lines, problems };
}

/**
 * The records that hold to their type's schema (orchestrator/schemas/results.schema.json); each
 * other is said in one line, naming its line and field, and skipped, so the rest still renders.
 * A file from a newer kit (a larger schemaVersion) is said once: what it holds may be misread.
 */
function checkedRecords({ records, lines, problems }) {
  const kept = [];
  records.forEach((record, i) => {
    const problem = recordProblem(record);
    // the run's header is kept whatever it holds: nothing of the run renders without it
    const header = record?.type === 'run' && record.params && typeof record.params === 'object';
    if (problem) problems.push(`line ${lines[i]}${typeof record?.type === 'string' ? ` (a ${record.type} record)` : ''}: ${problem}; ${header ? 'kept, as the run\'s header' : 'the record was skipped'}`);
    if (!problem || header) kept.push(record);
  });
  const version = Math.max(0, ...kept.filter((r) => r.type === 'run' || r.type === 'resume').map((r) => (Number.isInteger(r.schemaVersion) ? r.schemaVersion : 1)));
  if (version > SCHEMA_VERSION) {
    problems.unshift(`written by a newer kit (results schema version ${version}; this kit reads version ${SCHEMA_VERSION}): what changed since may be skipped or misread; a newer kit reads it whole`);
  }
  return kept;
}

/** Whether a folder holds a run's results. */
function hasResults(dir) {
  return fs.existsSync(path.join(dir, RESULTS_FILE));
}

/**
 * A run folder's results, split by record type. `run` is the header; a resumed run records its
 * servers again, so `servers` holds the latest record of each name; `end` is the closing record,
 * or null for a run that has not finished (or was resumed and has not finished since).
 */
function readRun(dir) {
  const read = readResults(path.join(dir, RESULTS_FILE));
  const { problems } = read;
  const records = checkedRecords(read);
  const of = (type) => records.filter((r) => r.type === type);
  const [run] = of('run');
  if (!run) throw new ResultsError(`${path.join(dir, RESULTS_FILE)} has no run header`);
  const last = records.filter((r) => r.type === 'end' || r.type === 'resume').at(-1);
  return {
    dir,
    records,
    problems,
    run,
    resumes: of('resume'),
    servers: [...new Map(of('server').map((r) => [r.server, r])).values()],
    measurements: of('measurement'),
    // the paired rounds' blocks: one variant's share of a step, timed on its own (docs/outputs.md)
    blocks: of('block'),
    workers: of('worker'),
    calibrations: of('calibration'),
    // a resumed run keeps the size it recorded: the latest record per server and scenario
    sizes: [...new Map(of('size').map((r) => [`${r.server}|${r.scenario}`, r])).values()],
    steps: of('step'),
    failures: of('failure'),
    end: last && last.type === 'end' ? last : null,
    runId: records.filter((r) => r.type === 'run' || r.type === 'resume').at(-1).runId,
  };
}

/**
 * The sizes a scenario ran at on a server: its size record (every run since --size auto writes
 * one), else the run header's sizes (runs from before), else null.
 */
function sizesOf(run, scenario, server) {
  const record = run.sizes?.find((r) => r.scenario === scenario && r.server === server);
  if (record) return record.sizes;
  const header = run.run.params.sizes?.[scenario];
  if (!header) return null;
  const { passes, ...vars } = header;
  return vars;
}

/**
 * The time a scenario's steps took on a server (the sum of their scriptMs), per run of it
 * where --repeat ran it several times (warm-up included: it ran at the same size): { ms, runs }.
 */
function stepTimeOf(run, scenario, server) {
  const steps = run.steps.filter((s) => s.scenario === scenario && s.server === server);
  if (!steps.length) return null;
  const runs = new Set(steps.map((s) => s.repeat ?? 0)).size;
  return { ms: steps.reduce((n, s) => n + s.scriptMs, 0) / runs, runs };
}

module.exports = { readResults, readRun, hasResults, sizesOf, stepTimeOf, RESULTS_FILE };
