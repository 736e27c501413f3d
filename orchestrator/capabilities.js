'use strict';
// What this machine can run, and why not where it cannot: each server kind and each optional
// feature, asked the way the module that uses it looks (the binaries' paths from config, the
// PostgreSQL the servers would start, the library the loader finds). `orchestrate config` lists
// them; a SQL baseline that cannot run records the reason instead of failing. scripts/setup.sh
// asks the same questions before node_modules exists (docs/setup.md names each part).
const fs = require('node:fs');
const { execFileSync } = require('node:child_process');
const { postgresMissing } = require('./servers/postgres');
const { ferretdb2Missing } = require('./servers/ferretdb');
const { discoverScenarios } = require('./scenarios');
const { ScenarioError } = require('./errors');

const run = (file, args) => execFileSync(file, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });

/** The shared libraries mongod loads that its tarball does not carry (MongoDB's tarball install notes). */
const MONGOD_LIBRARIES = ['libcurl.so.4', 'libcrypto.so.3', 'liblzma.so.5'];

/** mongod's libraries the loader does not find (Linux; none elsewhere, or where there is no ldconfig to ask). */
function missingMongodLibraries(platform = process.platform) {
  if (platform !== 'linux') return [];
  let cache = null;
  // Debian keeps ldconfig in /sbin, off a user's PATH; a user may run `ldconfig -p` all the same
  for (const ldconfig of ['ldconfig', '/sbin/ldconfig']) {
    try { cache = run(ldconfig, ['-p']); break; } catch { /* the next */ }
  }
  if (cache === null) return [];
  const found = new Set(cache.split('\n').map((l) => l.trim().split(' ')[0]));
  return MONGOD_LIBRARIES.filter((lib) => !found.has(lib));
}

function ferretdbMissing(config) {
  return fs.existsSync(config.ferretdbBin) ? null
    : `FerretDB v1.24.0 is not built at ${config.ferretdbBin} (npm run setup builds it where Go 1.21 or later is on PATH)`;
}

function chromiumMissing(config) {
  return fs.existsSync(config.chromium) ? null : `no Chromium at ${config.chromium} (Debian: apt-get install chromium; elsewhere set CLASSICS_CHROMIUM)`;
}

function libmongocMissing() {
  try { run('pkg-config', ['--exists', 'libmongoc-1.0']); return null; } catch {
    return 'pkg-config finds no libmongoc-1.0 (Debian and Ubuntu: apt-get install libmongoc-dev; macOS: brew install mongo-c-driver)';
  }
}

function cjkFontMissing(platform = process.platform) {
  if (platform === 'darwin') return null; // macOS ships PingFang
  try { return run('fc-list', [':lang=zh', 'family']).trim() ? null : 'fc-list finds no font for Chinese (Debian and Ubuntu: apt-get install fonts-noto-cjk)'; } catch {
    return 'no fc-list (fontconfig) to find a font for Chinese with (Debian and Ubuntu: apt-get install fonts-noto-cjk)';
  }
}

/** The languages whose articles' text needs a CJK font (fc-list :lang=zh finds those fonts). */
const CJK_LANGUAGES = ['zh', 'ja', 'ko'];

/** Scenario names as one possessive: "a' and b's". */
function possessive(names) {
  return names.map((n) => (n.endsWith('s') ? `${n}'` : `${n}'s`)).join(' and ');
}

/**
 * What the optional features are for, from what the scenarios declare (scenario.json): the
 * scenarios with a baseline module (run/conductor.js starts its PostgreSQL), and those whose
 * article's language (article.language) needs a CJK font.
 */
function featureUses(scenarios) {
  const names = (list) => list.map((s) => s.name);
  const baselines = names(scenarios.filter((s) => s.baseline));
  const cjk = scenarios.filter((s) => CJK_LANGUAGES.includes(s.article?.language));
  const languages = [...new Set(cjk.map((s) => new Intl.DisplayNames(['en'], { type: 'language' }).of(s.article.language)))];
  return {
    sqlBaseline: baselines.length ? `${possessive(baselines)} SQL side, on a private PostgreSQL cluster` : 'a scenario\'s SQL side, on a private PostgreSQL cluster (no scenario has one)',
    cjkFont: cjk.length ? `report.html's ${languages.join(' and ')} text (${possessive(names(cjk))} article${cjk.length > 1 ? 's' : ''})` : 'report.html\'s Chinese, Japanese or Korean text (no article is in one)',
  };
}

/** The sound scenarios under config.shellDir, or none where there is no such folder (config still answers). */
function knownScenarios(config) {
  try {
    return discoverScenarios(config.shellDir);
  } catch (err) {
    if (err instanceof ScenarioError) return [];
    throw err;
  }
}

function mongodMissing(config) {
  if (config.mongodSystemBinary) return fs.existsSync(config.mongodSystemBinary) ? null : `MONGOMS_SYSTEM_BINARY names ${config.mongodSystemBinary}, which does not exist`;
  const libs = missingMongodLibraries();
  return libs.length ? `the loader does not find ${libs.join(', ')}, which mongod needs (npm run setup names the packages)` : null;
}

/**
 * Every server kind and feature: [{ name, what, kind: 'server'|'feature', missing }] where
 * missing is why it cannot be had here, or null. scenarios: the scenario folders' descriptors
 * (what the features are for), by default those under config.shellDir.
 */
function capabilities(config, scenarios = knownScenarios(config)) {
  const uses = featureUses(scenarios);
  const postgres = postgresMissing(config);
  const ferretdb = ferretdbMissing(config);
  const mongod = mongodMissing(config);
  return [
    { kind: 'server', name: 'mongod', what: config.mongodSystemBinary ? 'the mongod MONGOMS_SYSTEM_BINARY names' : 'mongod from mongodb-memory-server (downloaded on first use)', missing: mongod },
    { kind: 'server', name: 'ferretdb', what: 'FerretDB 1.24 on SQLite', missing: ferretdb },
    { kind: 'server', name: 'ferretdb-pg', what: 'FerretDB 1.24 on a private PostgreSQL cluster', missing: ferretdb || postgres },
    { kind: 'server', name: 'ferretdb2', what: 'FerretDB 2.7 on PostgreSQL with DocumentDB', missing: process.platform === 'linux' ? ferretdb2Missing(config) : 'Linux only (chroot into a Debian root file system)' },
    { kind: 'feature', name: 'SQL baseline', what: uses.sqlBaseline, missing: postgres },
    { kind: 'feature', name: 'browser test', what: 'the test that opens report.html in Chromium', missing: chromiumMissing(config) },
    { kind: 'feature', name: 'compiled client', what: 'npm run bench\'s calibration loops in C on libmongoc', missing: libmongocMissing() },
    { kind: 'feature', name: 'CJK font', what: uses.cjkFont, missing: cjkFontMissing() },
  ];
}

module.exports = { capabilities, postgresMissing, chromiumMissing, missingMongodLibraries, MONGOD_LIBRARIES };
