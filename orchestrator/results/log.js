'use strict';
// results.jsonl: one JSON object per line, each written and flushed to disk the moment it is
// taken, so a run that dies keeps every measurement before it.
const fs = require('node:fs');
const { EJSON } = require('bson');
const { ResultsError } = require('../errors');

class ResultsLog {
  constructor(file) {
    this.file = file;
    this.fd = fs.openSync(file, 'a');
  }

  append(record) {
    if (this.fd === null) return; // closed by an interrupt: the run is over
    fs.writeSync(this.fd, `${EJSON.stringify(record, { relaxed: true })}\n`);
    fs.fdatasyncSync(this.fd);
  }

  close() {
    if (this.fd !== null) fs.closeSync(this.fd);
    this.fd = null;
  }
}

/**
 * Every complete record of a results file. A line that does not parse (a run killed in the middle
 * of a write) is reported in `problems` and skipped, so what is complete still renders.
 */
function readResults(file) {
  let text;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    throw new ResultsError(err.code === 'ENOENT' ? `no results at ${file}` : `cannot read ${file}: ${err.message}`);
  }
  const records = [];
  const problems = [];
  text.split('\n').forEach((line, i) => {
    if (!line.trim()) return;
    try {
      records.push(EJSON.parse(line, { relaxed: true }));
    } catch {
      problems.push(`line ${i + 1} is not complete JSON and was skipped`);
    }
  });
  if (!records.length) throw new ResultsError(`${file} holds no complete results`);
  return { records, problems };
}

module.exports = { ResultsLog, readResults };
