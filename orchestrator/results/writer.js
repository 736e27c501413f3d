'use strict';
// The one writer of results.jsonl: one JSON object per line, each written and flushed to disk the
// moment it is taken, so a run that dies keeps every measurement before it. A write that fails
// (a full disk) is cut back to the last whole line, so the file stays valid JSON lines, and stops
// the run with one line naming the file: nothing after it, an end record least of all, is written.
const fs = require('node:fs');
const { EJSON } = require('bson');
const { DiskWriteError } = require('../errors');
const { SCHEMA_VERSION } = require('../schemas');

class ResultsLog {
  constructor(file) {
    this.file = file;
    this.failed = null;
    try {
      this.fd = fs.openSync(file, 'a');
      this.size = fs.fstatSync(this.fd).size;
    } catch (err) {
      throw new DiskWriteError(file, err);
    }
  }

  append(record) {
    if (this.failed) throw this.failed;
    if (this.fd === null) return; // closed by an interrupt: the run is over
    // a run's header (and a resume's) says which version of the results schema the file is in
    const stamped = record.type === 'run' || record.type === 'resume' ? { type: record.type, schemaVersion: SCHEMA_VERSION, ...record } : record;
    const line = Buffer.from(`${EJSON.stringify(stamped, { relaxed: true })}\n`);
    try {
      for (let written = 0; written < line.length;) written += fs.writeSync(this.fd, line, written);
      fs.fdatasyncSync(this.fd);
      this.size += line.length;
    } catch (err) {
      // a part of the line may be on disk: cut it off, so what is there stays whole lines
      try { fs.ftruncateSync(this.fd, this.size); } catch { /* the reader skips a cut line */ }
      this.failed = new DiskWriteError(this.file, err);
      throw this.failed;
    }
  }

  close() {
    if (this.fd !== null) try { fs.closeSync(this.fd); } catch { /* nothing more to write */ }
    this.fd = null;
  }
}

/**
 * The run's outputs could not be written after its end record said "ok" (a disk that filled while
 * the charts were drawn): that record is cut off and one saying why the run failed put in its
 * place; where even that cannot be written, the file ends without an end record, never a false "ok".
 */
function retractOkEnd(file, error) {
  let fd;
  try {
    fd = fs.openSync(file, 'r+');
    const text = fs.readFileSync(fd, 'utf8');
    const start = text.lastIndexOf('\n', text.length - 2) + 1;
    const last = JSON.parse(text.slice(start));
    if (last.type !== 'end' || last.status !== 'ok') return;
    fs.ftruncateSync(fd, Buffer.byteLength(text.slice(0, start)));
    const line = Buffer.from(`${EJSON.stringify({ ...last, status: 'failed', error }, { relaxed: true })}\n`);
    try {
      fs.writeSync(fd, line, 0, line.length, Buffer.byteLength(text.slice(0, start)));
      fs.fdatasyncSync(fd);
    } catch {
      fs.ftruncateSync(fd, Buffer.byteLength(text.slice(0, start)));
    }
  } catch { /* unreadable: nothing there claims more than it should */ } finally {
    if (fd !== undefined) try { fs.closeSync(fd); } catch { /* done */ }
  }
}

module.exports = { ResultsLog, retractOkEnd };
