'use strict';
// Script text → what runs: mongosh's own @mongosh/async-rewriter2 (the version mongosh 2.12
// uses), so a call that looks synchronous awaits its result exactly as in mongosh, in loops,
// callbacks and try/catch alike. Rewriting is Babel: about 200 ms to load and up to a second for
// a long scenario script, so each rewrite is kept on disk, keyed by the rewriter's version and
// the text's hash, and a script that has not changed starts without Babel. The cache folder is
// the kit's own (config.js: under node_modules/.cache by default, where such caches
// live and go with node_modules); an unwritable one only costs time. The runtime support code comes precompiled with the package and needs no Babel.
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const { resolveConfig } = require('../config');

const REWRITER = '@mongosh/async-rewriter2';

function rewriterVersion() {
  // the package has no "exports" map, so its package.json can be required directly
  return require(`${REWRITER}/package.json`).version;
}

function defaultCacheDir(env = process.env) {
  return resolveConfig(env).kitShellCache;
}

class ScriptRewriter {
  constructor({ cacheDir = defaultCacheDir() } = {}) {
    this.cacheDir = cacheDir;
    this.version = rewriterVersion();
    this.writer = null;
    this.stats = { cached: 0, rewritten: 0 };
  }

  /** async-rewriter2's runtime support code (prepended to the first script, as mongosh does). */
  supportCode() {
    return require(`${REWRITER}/lib/runtime-support.out.nocov`).default;
  }

  /** The rewritten form of code; throws the rewriter's SyntaxError for code that does not parse. */
  rewrite(code) {
    const key = crypto.createHash('sha256').update(`${this.version}\0${code}`).digest('hex');
    const file = path.join(this.cacheDir, `${key}.js`);
    try {
      const cached = fs.readFileSync(file, 'utf8');
      this.stats.cached++;
      return cached;
    } catch { /* not cached yet */ }
    this.writer ??= new (require(REWRITER).default)();
    const rewritten = this.writer.process(code);
    this.stats.rewritten++;
    this.store(file, rewritten);
    return rewritten;
  }

  /** Writes atomically (a rename), so a concurrent shell never reads half a file. */
  store(file, text) {
    try {
      fs.mkdirSync(this.cacheDir, { recursive: true, mode: 0o700 });
      const temp = `${file}.${process.pid}.tmp`;
      fs.writeFileSync(temp, text, { mode: 0o600 });
      fs.renameSync(temp, file);
    } catch { /* no cache: the next run rewrites again */ }
  }
}

module.exports = { ScriptRewriter, defaultCacheDir };
