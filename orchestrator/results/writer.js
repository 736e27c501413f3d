'use strict';
// The one writer of results.jsonl: one JSON object per line, each written and flushed to disk the
// moment it is taken, so a run that dies keeps every measurement before it.
const fs = require('node:fs');
const { EJSON } = require('bson');

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

module.exports = { ResultsLog };
