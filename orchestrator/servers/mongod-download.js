'use strict';
// Downloads and unpacks a mongod through mongodb-memory-server (MMS) 11, in a process of its own
// that the kit starts (servers/mongod.js, downloadMongod) and reads.
//
// A process of its own, because MMS gives no way to stop a download: the kit stops this process
// when the download's own budget (CLASSICS_MONGOD_DOWNLOAD_TIMEOUT_MS) runs out, and nothing of it
// goes on behind a fallback. What a stopped download leaves, the next run takes up: MMS's lock
// file names a process that is gone, which LockFile.checkLock (lockfile.js) takes as free, and
// the partial archive is resumed (MONGOMS_RESUME_DOWNLOAD, true by default).
//
// Its progress: MMS writes it to stdout itself (MongoBinaryDownload.printDownloadProgress:
// process.stdout.write on a terminal, console.log elsewhere, every 2 s), which would land in the
// middle of the kit's output. Here that method is replaced, for this process only, by one that
// does what MMS's does first (adds the chunk to dlProgress.current, which the download's own
// "Too small" check reads when the file ends) and hands the bytes to the kit instead.
//
// argv[2]: the JSON of MMS's binary options ({ version } or {}). stdout: one JSON object a line,
//   { progress: { bytes, total } }, { warning }, then { path } or { error } (a reason for one line).
const { MongoBinary } = require('mongodb-memory-server-core');
const { MongoBinaryDownload } = require('mongodb-memory-server-core/lib/util/MongoBinaryDownload');
const { reasonOf } = require('./mongod');

const send = (message) => process.stdout.write(`${JSON.stringify(message)}\n`);

// anything else MMS prints must not break the lines above
console.log = (...args) => process.stderr.write(`${args.join(' ')}\n`);
console.warn = (...args) => send({ warning: args.map((a) => (a instanceof Error ? a.message : String(a))).join(' ') });

/** How often progress goes to the kit: often enough for a bar, far from every chunk. */
const PROGRESS_EVERY_MS = 200;

MongoBinaryDownload.prototype.printDownloadProgress = function printDownloadProgress(chunk, forcePrint = false) {
  this.dlProgress.current += chunk.length;
  // the archive's checksum file is a download of its own, a few bytes: not the archive's progress
  if (/\.md5$/.test(this._downloadingUrl || '')) return;
  const now = Date.now();
  if (!forcePrint && now - this.dlProgress.lastPrintedAt < PROGRESS_EVERY_MS) return;
  this.dlProgress.lastPrintedAt = now;
  send({ progress: { bytes: this.dlProgress.current, total: this.dlProgress.length } });
};

async function main() {
  const options = JSON.parse(process.argv[2] || '{}');
  try {
    send({ path: await MongoBinary.getPath(options) });
  } catch (err) {
    const { DryMongoBinary } = require('mongodb-memory-server-core');
    send({ error: reasonOf(err, DryMongoBinary.getEnsuredOptions(options).version) });
    process.exitCode = 1;
  }
}

main();
