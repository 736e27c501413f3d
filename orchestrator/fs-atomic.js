'use strict';
// A file the kit writes whole (a chart, the summary, the report, its run-state file) appears
// whole or not at all: written to a temporary name in the same folder, flushed, then renamed
// over the final name, so a full disk or a kill never leaves half a PNG behind. An error names
// the file and what the system said, in one line.
const fs = require('node:fs');
const path = require('node:path');
const { DiskWriteError } = require('./errors');

let counter = 0;

/**
 * Writes data (a string or a Buffer) to file atomically; throws a DiskWriteError naming the file.
 * fsync: false for a file that need only outlive the process, not the machine (a run's state),
 * which then costs no wait on the disk.
 */
function writeFileAtomic(file, data, { fsync = true } = {}) {
  const temp = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.${++counter}.tmp`);
  let fd = null;
  try {
    fd = fs.openSync(temp, 'w');
    fs.writeFileSync(fd, data);
    if (fsync) fs.fsyncSync(fd);
    fs.closeSync(fd);
    fd = null;
    fs.renameSync(temp, file);
  } catch (err) {
    if (fd !== null) try { fs.closeSync(fd); } catch { /* already failing */ }
    fs.rmSync(temp, { force: true });
    throw new DiskWriteError(file, err);
  }
}

module.exports = { writeFileAtomic };
