'use strict';
// Where the kit keeps what its PostgreSQL must reach: the template clusters and the data folders
// of the clusters it starts. As root, PostgreSQL runs as the postgres user, who must pass through
// every folder above them, and a checkout inside a folder only root may enter (a `mktemp -d`
// folder, anything under /root) is closed to that user. So the kit's folder is inside the checkout
// (node_modules/.cache, beside the kit's other caches) where that user can reach it, and else one
// of the kit's own under /var/tmp, one per user and checkout, that the kit makes and checks itself
// (owned by it, not a link, writable by no one else) and opens to passing through only (mode 711:
// no one else may list or write it). A cluster's data folder is PostgreSQL's own (700, its user's).
const crypto = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const debug = require('debug')('classics:postgres');
const { ServerStartError } = require('../errors');
const { makeTempDir } = require('../processes');
const { ROOT } = require('../config');

/** Passable by others, listable and writable by the kit alone. */
const ENTERABLE = 0o711;

const canPass = (identity, st) => Boolean(st.uid === identity.uid ? st.mode & 0o100 : st.gid === identity.gid ? st.mode & 0o010 : st.mode & 0o001);

/**
 * The first folder above target (existing ones, along its path as written and along the path its
 * links lead to) that identity may not pass through, or null. identity {}: the kit's own user,
 * who passes wherever the kit does.
 */
function closedFolderAbove(identity, target) {
  if (identity.uid === undefined) return null;
  const chains = [path.resolve(target)];
  let existing = path.dirname(path.resolve(target));
  while (!fs.existsSync(existing) && existing !== path.dirname(existing)) existing = path.dirname(existing);
  try { chains.push(path.join(fs.realpathSync(existing), path.relative(existing, path.dirname(path.resolve(target))), 'x')); } catch { /* gone meanwhile */ }
  for (const chain of chains) {
    for (let d = path.dirname(chain); ; d = path.dirname(d)) {
      let st = null;
      try { st = fs.statSync(d); } catch { /* made later, by the kit, enterable */ }
      if (st && !canPass(identity, st)) return d;
      if (d === path.dirname(d)) break;
    }
  }
  return null;
}

/** dir, made where missing, each folder the kit makes enterable (whatever the umask) */
function makeEnterable(dir) {
  const first = fs.mkdirSync(dir, { recursive: true, mode: ENTERABLE });
  if (!first) return dir;
  for (let d = dir; ; d = path.dirname(d)) {
    fs.chmodSync(d, ENTERABLE);
    if (d === first || d === path.dirname(d)) break;
  }
  return dir;
}

/** A folder of dir's, made where missing; enterable by PostgreSQL's user where that is not the kit's. */
function subfolder(dir, name, identity) {
  const sub = makeEnterable(path.join(dir, name));
  if (identity.uid !== undefined && !canPass(identity, fs.statSync(sub))) fs.chmodSync(sub, ENTERABLE);
  return sub;
}

/**
 * The kit's folder under /var/tmp (else TMPDIR) for this user and checkout: made with mkdir
 * (never following a link), used only where it is a folder the kit's user owns and no one else
 * may write; a name another user took first gets this run a folder of its own (made by mkdtemp,
 * removed as the run ends), so nothing another user prepared is ever used.
 */
function sharedFolder(identity, checkout) {
  const base = ['/var/tmp', os.tmpdir()].find((b) => fs.existsSync(b) && !closedFolderAbove(identity, path.join(b, 'x')));
  if (!base) {
    throw new ServerStartError(`PostgreSQL runs as the postgres user, which can enter neither ${checkout} nor /var/tmp nor ${os.tmpdir()}: set CLASSICS_PG_DIR to a folder it can reach`);
  }
  const uid = process.getuid();
  const dir = path.join(base, `mongo-classics-pg-${uid}-${crypto.createHash('sha256').update(checkout).digest('hex').slice(0, 12)}`);
  try {
    fs.mkdirSync(dir, { mode: 0o700 });
  } catch (err) {
    if (err.code !== 'EEXIST') throw err;
  }
  const st = fs.lstatSync(dir);
  if (!st.isDirectory() || st.uid !== uid || (st.mode & 0o022)) {
    debug('%s is not the kit\'s (a link, another user\'s or writable by others): a folder of this run\'s instead', dir);
    const own = makeTempDir('mongo-classics-pg-', base);
    fs.chmodSync(own, ENTERABLE);
    return own;
  }
  fs.chmodSync(dir, ENTERABLE);
  return dir;
}

/**
 * The kit's folder for PostgreSQL: `configured` (CLASSICS_PG_DIR) where set, which PostgreSQL's
 * user must be able to reach (else one line says which folder stops it); else inside the checkout
 * where it can, else the kit's own under /var/tmp.
 * @param identity {uid, gid} PostgreSQL runs as; {} where it runs as the kit's own user (or
 *                 inside a root file system the cluster's folder is bound into)
 */
function postgresFolder(configured, identity = {}, { checkout = ROOT } = {}) {
  if (configured) {
    const dir = path.resolve(configured);
    const closed = closedFolderAbove(identity, path.join(dir, 'templates'));
    if (closed) {
      throw new ServerStartError(`PostgreSQL runs as the postgres user, which cannot pass through ${closed} to keep its clusters in ${dir} (CLASSICS_PG_DIR): choose a folder others can enter (or chmod o+x ${closed})`);
    }
    return makeEnterable(dir);
  }
  const inCheckout = path.join(checkout, 'node_modules', '.cache', 'mongo-classics-pg');
  if (!closedFolderAbove(identity, path.join(inCheckout, 'templates'))) return makeEnterable(inCheckout);
  return sharedFolder(identity, checkout);
}

/** Where template clusters are kept in the kit's folder. */
const templatesFolder = (folder, identity) => subfolder(folder, 'templates', identity);

/**
 * A new folder for one cluster (removed as the run ends, reaped after a killed one): in TMPDIR,
 * as every server's, where PostgreSQL's user can reach it; else in the kit's folder.
 */
function makeClusterDir(folder, identity) {
  const base = closedFolderAbove(identity, path.join(os.tmpdir(), 'x')) ? subfolder(folder, 'clusters', identity) : os.tmpdir();
  return makeTempDir('classics-pg-', base);
}

module.exports = { postgresFolder, templatesFolder, makeClusterDir, closedFolderAbove };
