'use strict';
// npm run setup where users are: the real scripts/setup.sh, run on this machine with the checks a
// test cannot change stubbed where the script lets it (CLASSICS_SETUP_PLATFORM for `uname -s`,
// CLASSICS_SETUP_NOT_ROOT to take root for a user, CLASSICS_SETUP_OS_RELEASE for /etc/os-release)
// and commands stubbed on PATH (ldconfig answering as the loader would without a library; apt-get,
// dpkg-query and brew recording that they were called, and failing). Every run finds node_modules
// matching package-lock.json and FerretDB either built or pointed away from (CLASSICS_FERRETDB_BIN),
// so nothing is installed or rebuilt.
const assert = require('node:assert');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { resolveConfig } = require('../../orchestrator/config');
const { ferretdb2Missing } = require('../../orchestrator/servers/ferretdb');
const { skip } = require('../helpers/skips');

const ROOT = path.resolve(__dirname, '..', '..');
const MONGOD_LIBS = ['libcurl.so.4', 'libcrypto.so.3', 'liblzma.so.5'];

/** PATH without the folders that hold `name` (Go here: /usr/local/go/bin). */
function pathWithout(name) {
  return process.env.PATH.split(':').filter((d) => !fs.existsSync(path.join(d, name))).join(':');
}

describe('npm run setup (scripts/setup.sh) where users are', function () {
  this.timeout(120000);
  let dir;
  let stubs;
  let calls;
  before(function () {
    // each run must find setup done, so that it installs and builds nothing
    const config = resolveConfig();
    const notDone = !fs.existsSync(path.join(ROOT, 'node_modules', '.setup-lock-sum')) ? 'npm ci by npm run setup'
      : !fs.existsSync(config.ferretdbBin) ? `FerretDB at ${config.ferretdbBin}` : null;
    if (notDone) {
      skip(this, 'npm run setup has not run here', `no ${notDone}`);
    }
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'classics-setup-test-'));
    stubs = path.join(dir, 'bin');
    calls = path.join(dir, 'calls');
    fs.mkdirSync(stubs);
    // installers: called, they say so and fail
    for (const name of ['apt-get', 'apt', 'dpkg-query', 'brew']) {
      fs.writeFileSync(path.join(stubs, name), `#!/bin/sh\necho "${name} $*" >> "${calls}"\nexit 1\n`, { mode: 0o755 });
    }
  });
  after(() => dir && fs.rmSync(dir, { recursive: true, force: true }));
  beforeEach(() => fs.rmSync(calls, { force: true }));

  /**
   * As root, setup goes on to ferretdb2: these cases need it installed already, or setup would
   * install it (a minute, into .tools).
   */
  function skipUnlessRootWithFerretDB2(test) {
    if (process.getuid() !== 0) skip(test, 'not root', 'setup as root is tried only where ferretdb2 is installed');
    const why = ferretdb2Missing(resolveConfig());
    if (why) skip(test, 'ferretdb2 is not installed', `setup as root is tried only where ferretdb2 is installed: ${why}`);
  }

  /** ldconfig -p as the loader's cache would print it with only these of mongod's libraries. */
  function loaderWith(libs) {
    const lines = ['3 libs found in cache `/etc/ld.so.cache\'', '\tlibz.so.1 (libc6,x86-64) => /lib/x86_64-linux-gnu/libz.so.1',
      ...libs.map((l) => `\t${l} (libc6,x86-64) => /lib/x86_64-linux-gnu/${l}`)];
    const folder = path.join(dir, `ldconfig-${libs.length}-${libs.join('-')}`);
    fs.mkdirSync(folder, { recursive: true });
    fs.writeFileSync(path.join(folder, 'ldconfig'), `#!/bin/sh\ncat <<'EOF'\n${lines.join('\n')}\nEOF\n`, { mode: 0o755 });
    return folder;
  }

  function osRelease(text) {
    const file = path.join(dir, `os-release-${Math.random().toString(36).slice(2)}`);
    fs.writeFileSync(file, text);
    return file;
  }
  const DEBIAN_13 = 'PRETTY_NAME="Debian GNU/Linux 13 (trixie)"\nNAME="Debian GNU/Linux"\nVERSION_ID="13"\nVERSION_CODENAME=trixie\nID=debian\n';

  /** setup.sh as a user runs it; with no cache of built things (CLASSICS_SETUP_CACHE empty) unless env gives one. */
  function setup({ env = {}, path: searchPath = process.env.PATH, before = [] } = {}) {
    const result = spawnSync('bash', ['scripts/setup.sh'], {
      cwd: ROOT, encoding: 'utf8',
      env: { ...process.env, CLASSICS_SETUP_CACHE: '', ...env, PATH: [...before, stubs, searchPath].join(':') },
    });
    const lines = result.stdout.split('\n').filter(Boolean);
    const called = fs.existsSync(calls) ? fs.readFileSync(calls, 'utf8').split('\n').filter(Boolean) : [];
    // the table setup ends with: "  NAME  ready|skipped ..." rows, by name
    const table = Object.fromEntries(lines.filter((l) => /^ {2}\S/.test(l)).map((l) => /^ {2}(\S+(?: \S+)*(?: \([^)]*\))?)\s{2,}(.*)$/.exec(l)).filter(Boolean).map((m) => [m[1].replace(/ \(.*\)$/, ''), m[2]]));
    return { code: result.status, lines, said: lines.filter((l) => l.startsWith('setup: ')), table, stderr: result.stderr, called, text: `${result.stdout}${result.stderr}` };
  }

  it('without Go on PATH completes, with one line about the FerretDB kinds', function () {
    const missing = path.join(dir, 'no-ferretdb', 'ferretdb');
    const out = setup({ path: pathWithout('go'), env: { CLASSICS_SETUP_NOT_ROOT: '1', CLASSICS_FERRETDB_BIN: missing } });
    assert.strictEqual(out.code, 0, out.text);
    const goLines = out.said.filter((l) => /\bGo\b/.test(l));
    assert.strictEqual(goLines.length, 1, out.text);
    for (const kind of ['ferretdb', 'ferretdb-pg']) assert.match(out.table[kind], /^skipped no Go 1\.21 or later to build it; add it with: Go from https:\/\/go\.dev\/dl/, out.text);
    assert.match(goLines[0], /^setup: skipped the FerretDB kinds \(ferretdb ferretdb-pg\): Go 1\.21 or later builds them/);
    assert.match(goLines[0], /mongod \(embedded\) works without them/);
    assert.ok(!out.lines.some((l) => /building FerretDB/.test(l)), out.text);
    assert.ok(!fs.existsSync(missing), 'nothing was built');
    assert.strictEqual(out.lines.at(-1), 'setup: done');
  });

  it('keeps what it built in a cache outside the clone, and a fresh clone without Go reuses it, checked, saying so in one line', function () {
    const config = resolveConfig();
    const cache = path.join(dir, 'cache');
    // a clone where FerretDB is built: setup keeps it in the cache (as it keeps a fresh build)
    const built = path.join(dir, 'built', 'ferretdb');
    fs.mkdirSync(path.dirname(built), { recursive: true });
    fs.copyFileSync(config.ferretdbBin, built);
    fs.chmodSync(built, 0o755);
    const macOS = { CLASSICS_SETUP_PLATFORM: 'darwin', CLASSICS_SETUP_CACHE: cache, CLASSICS_CHROMIUM: path.join(dir, 'no-chromium') };
    const first = setup({ path: pathWithout('go'), before: [loaderWith([])], env: { ...macOS, CLASSICS_FERRETDB_BIN: built } });
    assert.strictEqual(first.code, 0, first.text);
    assert.ok(first.lines.includes(`setup: FerretDB v1.24.0 present at ${built}`), first.text);
    const [key] = fs.readdirSync(cache).filter((k) => /^ferretdb-v1\.24\.0-[0-9a-f]{12}$/.test(k));
    assert.ok(key, `the cache holds it under its key: ${fs.readdirSync(cache)}`);

    // a fresh clone, no Go to build with: the cached one, checked by its --version, says so once
    const fresh = path.join(dir, 'fresh', 'ferretdb');
    const second = setup({ path: pathWithout('go'), before: [loaderWith([])], env: { ...macOS, CLASSICS_FERRETDB_BIN: fresh } });
    assert.strictEqual(second.code, 0, second.text);
    const said = second.lines.filter((l) => /FerretDB v1\.24\.0/.test(l));
    assert.strictEqual(said.length, 1, second.text);
    assert.match(said[0], new RegExp(`^setup: FerretDB v1\\.24\\.0 from the cache \\(${cache}/${key}, kept \\d{4}-\\d\\d-\\d\\dT[\\d:]+Z\\), not built again$`));
    assert.match(spawnSync(fresh, ['--version'], { encoding: 'utf8' }).stdout, /version: v1\.24\.0/);
    assert.ok(!second.lines.some((l) => /skipped the FerretDB kinds/.test(l)), second.text);

    // a kept copy that fails the check (here: not a FerretDB at all) is not used
    const kept = path.join(cache, key, 'item');
    fs.rmSync(kept);
    fs.writeFileSync(kept, '#!/bin/sh\necho not a FerretDB\n', { mode: 0o755 });
    const third = setup({ path: pathWithout('go'), before: [loaderWith([])], env: { ...macOS, CLASSICS_FERRETDB_BIN: path.join(dir, 'third', 'ferretdb') } });
    assert.strictEqual(third.code, 0, third.text);
    assert.ok(!third.lines.some((l) => /from the cache/.test(l)), third.text);
    assert.ok(third.lines.some((l) => /^setup: skipped the FerretDB kinds/.test(l)), third.text);
    assert.ok(!fs.existsSync(path.join(dir, 'third', 'ferretdb')), 'nothing that failed the check is left where FerretDB goes');
  });

  it('builds FerretDB where Go is on PATH, keeps it in the cache, removes its build folder and exits 0', function () {
    // a stand-in `go` (never a FerretDB that measures anything): the module steps succeed, and
    // `go build -o FILE` writes a script answering --version as the build's version.txt says;
    // setup's own steps around it (the build folder, its removal at exit, the cache) are the real ones
    const goDir = path.join(dir, 'go-stand-in');
    fs.mkdirSync(goDir, { recursive: true });
    fs.writeFileSync(path.join(goDir, 'go'), [
      '#!/bin/sh',
      'case "$1" in',
      '  env) echo go1.24.4 ;;',
      '  mod) if [ "$2" = vendor ]; then mkdir -p vendor/github.com/FerretDB/FerretDB/build/version; fi ;;',
      '  build) out=$3; [ "$2" = "-mod=vendor" ] && out=$4',
      '    printf \'#!/bin/sh\\necho "version: %s"\\n\' "$(cat vendor/github.com/FerretDB/FerretDB/build/version/version.txt)" > "$out"; chmod 755 "$out" ;;',
      'esac',
      'exit 0',
      '',
    ].join('\n'), { mode: 0o755 });
    const tmp = path.join(dir, 'tmp-build');
    fs.mkdirSync(tmp, { recursive: true });
    const cache = path.join(dir, 'cache-build');
    const bin = path.join(dir, 'built-by-setup', 'ferretdb');
    const out = setup({
      path: pathWithout('go'),
      before: [goDir, loaderWith([])],
      env: { CLASSICS_SETUP_PLATFORM: 'darwin', CLASSICS_SETUP_CACHE: cache, CLASSICS_CHROMIUM: path.join(dir, 'no-chromium'), CLASSICS_FERRETDB_BIN: bin, TMPDIR: tmp },
    });
    assert.strictEqual(out.code, 0, out.text);
    assert.ok(out.lines.includes('setup: building FerretDB v1.24.0 (about 2 minutes)'), out.text);
    assert.ok(out.lines.includes('setup: built FerretDB version: v1.24.0'), out.text);
    assert.strictEqual(out.lines.at(-1), 'setup: done');
    assert.match(spawnSync(bin, ['--version'], { encoding: 'utf8' }).stdout, /version: v1\.24\.0/);
    assert.deepStrictEqual(fs.readdirSync(tmp), [], 'the build folder is removed');
    assert.ok(fs.readdirSync(cache).some((k) => /^ferretdb-v1\.24\.0-[0-9a-f]{12}$/.test(k)), 'the build is kept in the cache');
  });

  it('on Debian 13 as a user names libcurl4t64 in its one root line, never asks dpkg for libcurl4, and completes once the loader finds the libraries', function () {
    const env = { CLASSICS_SETUP_NOT_ROOT: '1', CLASSICS_SETUP_OS_RELEASE: osRelease(DEBIAN_13) };
    const first = setup({ env, before: [loaderWith(['liblzma.so.5'])] });
    assert.strictEqual(first.code, 1, first.text);
    const rootLines = first.lines.filter((l) => /sudo /.test(l));
    assert.strictEqual(rootLines.length, 1, first.text);
    assert.match(rootLines[0], /sudo apt-get install -y --no-install-recommends libcurl4t64 libssl3t64$/);
    assert.match(first.lines[0], /^setup: missing: the libraries mongod loads \(libcurl\.so\.4, libcrypto\.so\.3\)$/);
    assert.deepStrictEqual(first.called, [], 'no package manager is asked: the loader is');

    // the user ran that line as root: the loader finds them now (libcurl4t64 provides libcurl.so.4)
    const second = setup({ env, before: [loaderWith(MONGOD_LIBS)] });
    assert.strictEqual(second.code, 0, second.text);
    assert.strictEqual(second.lines.at(-1), 'setup: done');
    assert.ok(!second.lines.some((l) => /missing|libcurl/.test(l)), second.text);
    assert.deepStrictEqual(second.called, []);
  });

  it('names the packages each release calls them (Debian 12, Ubuntu 22.04 and 24.04)', function () {
    const releases = [
      ['ID=debian\nVERSION_ID="12"\nVERSION_CODENAME=bookworm\n', 'libcurl4 libssl3 liblzma5'],
      ['ID=ubuntu\nID_LIKE=debian\nVERSION_ID="22.04"\nVERSION_CODENAME=jammy\n', 'libcurl4 libssl3 liblzma5'],
      ['ID=ubuntu\nID_LIKE=debian\nVERSION_ID="24.04"\nVERSION_CODENAME=noble\n', 'libcurl4t64 libssl3t64 liblzma5'],
      ['ID=debian\nVERSION_CODENAME=forky\n', 'libcurl4t64 libssl3t64 liblzma5'], // testing: no VERSION_ID
    ];
    for (const [text, packages] of releases) {
      const out = setup({ env: { CLASSICS_SETUP_NOT_ROOT: '1', CLASSICS_SETUP_OS_RELEASE: osRelease(text) }, before: [loaderWith([])] });
      assert.strictEqual(out.code, 1, out.text);
      assert.ok(out.lines.some((l) => l.endsWith(`sudo apt-get install -y --no-install-recommends ${packages}`)), `${text}\n${out.text}`);
    }
  });

  it('on macOS uses no apt, and skips each optional part in one line', function () {
    const out = setup({
      path: pathWithout('go'),
      before: [loaderWith([])], // a Mac has no ldconfig: were it asked, mongod's libraries would be missing
      env: {
        CLASSICS_SETUP_PLATFORM: 'darwin', CLASSICS_FERRETDB_BIN: path.join(dir, 'no-ferretdb', 'ferretdb'),
        CLASSICS_CHROMIUM: path.join(dir, 'no-chromium'), PKG_CONFIG_PATH: dir, PKG_CONFIG_LIBDIR: dir,
      },
    });
    assert.strictEqual(out.code, 0, out.text);
    assert.deepStrictEqual(out.called, [], 'nothing installed: no apt, and brew is the user\'s to run');
    assert.ok(!out.lines.some((l) => /apt|dpkg|Debian packages/.test(l)), out.text);
    const skipped = out.lines.filter((l) => l.startsWith('setup: skipped '));
    for (const part of ['Chromium', 'libmongoc', 'ferretdb2', 'the FerretDB kinds']) {
      assert.strictEqual(skipped.filter((l) => l.startsWith(`setup: skipped ${part}`)).length, 1, `${part}\n${out.text}`);
    }
    assert.match(skipped.find((l) => l.startsWith('setup: skipped libmongoc')), /brew install mongo-c-driver/);
    assert.match(skipped.find((l) => l.startsWith('setup: skipped the FerretDB kinds')), /brew install go/);
    assert.match(skipped.find((l) => l.startsWith('setup: skipped ferretdb2')), /Linux only/);
    assert.strictEqual(out.lines.at(-1), 'setup: done');
  });

  it('as root installs only what is missing, by this release\'s names', function () {
    skipUnlessRootWithFerretDB2(this);
    // an apt-get that records what it was asked and succeeds (installs nothing)
    const apt = path.join(dir, 'apt-ok');
    fs.mkdirSync(apt, { recursive: true });
    fs.writeFileSync(path.join(apt, 'apt-get'), `#!/bin/sh\necho "apt-get $*" >> "${calls}"\n`, { mode: 0o755 });
    const out = setup({ env: { CLASSICS_SETUP_OS_RELEASE: osRelease(DEBIAN_13) }, before: [apt, loaderWith(['libcrypto.so.3', 'liblzma.so.5'])] });
    assert.strictEqual(out.code, 0, out.text);
    assert.deepStrictEqual(out.called, ['apt-get update -qq', 'apt-get install -y -qq --no-install-recommends libcurl4t64'], out.text);
    assert.match(out.lines[0], /^setup: installing Debian GNU\/Linux 13 \(trixie\)'s packages: libcurl4t64$/);
  });

  it('as root with nothing missing installs nothing and runs no apt-get update', function () {
    skipUnlessRootWithFerretDB2(this);
    const out = setup();
    assert.strictEqual(out.code, 0, out.text);
    assert.deepStrictEqual(out.called, [], out.text);
    assert.ok(!out.said.some((l) => /installing|skipped/.test(l)), out.text);
    for (const kind of ['ferretdb', 'ferretdb-pg', 'ferretdb2', 'SQL baseline']) assert.strictEqual(out.table[kind], 'ready', out.text);
    // embedded: a mongod where mongodb-memory-server has or can download one, else the first kind ready
    assert.match(out.table.embedded, /^= (mongod \S+|ferretdb2 \(FerretDB 2\.7 on PostgreSQL with DocumentDB\), since .+)$/, out.text);
    assert.ok(out.lines.length <= 30, `at most 30 lines on screen: ${out.text}`);
    assert.strictEqual(out.lines.at(-1), 'setup: done');
  });
});

// What an install leaves running inside a root file system holds what is mounted there: unmounting
// /proc under it fails with "target is busy" (so a finished install was once called a failure and
// its /proc stayed mounted). A small root file system here: `sleep` and its libraries, /proc
// mounted, and a `sleep` chrooted into it holding a file of that /proc open.
describe('undoing the mounts in a root file system something still runs in (scripts/setup-root.sh)', function () {
  this.timeout(60000);
  const made = [];
  const sleepers = [];

  function skipUnlessRoot(test) {
    if (process.platform !== 'linux') skip(test, 'not Linux', 'chroot, /proc');
    if (process.getuid() !== 0) skip(test, 'not root', 'mount and chroot need root');
  }

  const mountsUnder = (dir) => fs.readFileSync('/proc/self/mountinfo', 'utf8').split('\n').map((l) => l.split(' ')[4])
    .filter((m) => m && (m === dir || m.startsWith(`${dir}/`)));
  const alive = (pid) => { try { process.kill(pid, 0); return !fs.readFileSync(`/proc/${pid}/stat`, 'utf8').includes(') Z '); } catch { return false; } };

  /** A root file system at dir holding sleep and its libraries, with /proc mounted. */
  function fakeRoot(dir) {
    fs.mkdirSync(path.join(dir, 'proc'), { recursive: true });
    made.push(dir);
    const sleep = fs.realpathSync('/bin/sleep');
    const libs = spawnSync('ldd', [sleep], { encoding: 'utf8' }).stdout.split('\n')
      .map((l) => (/(\/\S+) \(0x/.exec(l) || [])[1]).filter(Boolean);
    for (const file of [sleep, ...libs]) {
      const inRoot = path.join(dir, file === sleep ? '/bin/sleep' : file);
      fs.mkdirSync(path.dirname(inRoot), { recursive: true });
      fs.copyFileSync(file, inRoot);
      fs.chmodSync(inRoot, 0o755);
    }
    const mounted = spawnSync('mount', ['-t', 'proc', 'proc', path.join(dir, 'proc')], { encoding: 'utf8' });
    assert.strictEqual(mounted.status, 0, mounted.stderr);
    return fs.realpathSync(dir);
  }

  /** A sleep chrooted into root, holding root/proc busy (a file of it open), as gpg-agent did. */
  function leaveRunning(root) {
    const fd = fs.openSync(path.join(root, 'proc', 'version'), 'r');
    const child = require('node:child_process').spawn('chroot', [root, '/bin/sleep', '600'], { stdio: [fd, 'ignore', 'ignore'], detached: true });
    fs.closeSync(fd);
    child.unref();
    sleepers.push(child.pid);
    // chroot has exec'd sleep once its root link points into root
    const until = Date.now() + 5000;
    while (Date.now() < until && !String(spawnSync('readlink', [`/proc/${child.pid}/root`], { encoding: 'utf8' }).stdout).startsWith(root)) spawnSync('sleep', ['0.05']);
    const busy = spawnSync('umount', [path.join(root, 'proc')], { encoding: 'utf8' });
    assert.notStrictEqual(busy.status, 0, 'a plain umount fails while the process is there (else this test proves nothing)');
    assert.match(busy.stderr, /busy/);
    return child.pid;
  }

  after(() => {
    for (const pid of sleepers) if (alive(pid)) process.kill(pid, 'SIGKILL');
    for (const dir of made) {
      for (const m of mountsUnder(fs.existsSync(dir) ? fs.realpathSync(dir) : dir).reverse()) spawnSync('umount', ['-l', m]);
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('ends the process, unmounts /proc and says so in one line', function () {
    skipUnlessRoot(this);
    const root = fakeRoot(fs.mkdtempSync(path.join(os.tmpdir(), 'classics-setup-root-')));
    const pid = leaveRunning(root);
    const out = spawnSync('bash', ['scripts/setup-root.sh', root, 'kill'], { cwd: ROOT, encoding: 'utf8' });
    assert.strictEqual(out.status, 0, `${out.stdout}${out.stderr}`);
    assert.strictEqual(out.stdout, `unmounted /proc in ${root} after ending 1 process(es) left running in it\n`);
    assert.ok(!alive(pid), 'the process left running in the root is ended');
    assert.deepStrictEqual(mountsUnder(root), [], 'nothing is left mounted');
  });

  it('without leave to end processes (a root a server may run in) still leaves nothing mounted, detaching lazily and saying so', function () {
    skipUnlessRoot(this);
    const root = fakeRoot(fs.mkdtempSync(path.join(os.tmpdir(), 'classics-setup-root-')));
    const pid = leaveRunning(root);
    const out = spawnSync('bash', ['scripts/setup-root.sh', root], { cwd: ROOT, encoding: 'utf8' });
    assert.strictEqual(out.status, 0, `${out.stdout}${out.stderr}`);
    assert.match(out.stdout, /^unmounted \/proc in \S+; \/proc still busy after 5 s, detached lazily \(umount -l/);
    assert.ok(alive(pid), 'the process is left alone');
    assert.deepStrictEqual(mountsUnder(root), []);
  });

  it('a real failure of the install quotes the line of its log that says why, and leaves nothing behind', function () {
    skipUnlessRoot(this);
    if (spawnSync('sh', ['-c', 'command -v debootstrap']).status !== 0) {
      skip(this, 'no debootstrap', 'npm run setup installs it as root');
    }
    // the ferretdb2 part alone, in a folder of its own (its .tools), from a mirror that does not answer
    const copy = fs.mkdtempSync(path.join(os.tmpdir(), 'classics-setup-fail-'));
    made.push(copy);
    fs.mkdirSync(path.join(copy, 'scripts'));
    for (const name of ['setup-ferretdb2.sh', 'setup-cache.sh', 'setup-root.sh']) fs.copyFileSync(path.join(ROOT, 'scripts', name), path.join(copy, 'scripts', name));
    const out = spawnSync('bash', ['scripts/setup-ferretdb2.sh'], {
      cwd: copy, encoding: 'utf8', env: { ...process.env, CLASSICS_SETUP_CACHE: '', CLASSICS_SID_MIRROR: 'http://127.0.0.1:9/debian' },
    });
    assert.strictEqual(out.status, 1, `${out.stdout}${out.stderr}`);
    const lines = out.stdout.split('\n').filter(Boolean);
    assert.strictEqual(lines.at(-2), 'setup: ferretdb2\'s setup failed in debootstrap (the sid root file system); .tools/documentdb/setup.log says:', out.stdout);
    assert.match(lines.at(-1), /^setup: {3}\| E: Failed getting release file http:\/\/127\.0\.0\.1:9\/debian\/dists\/sid\/Release$/, out.stdout);
    assert.deepStrictEqual(fs.readdirSync(path.join(copy, '.tools', 'documentdb')), ['setup.log'], 'no half-made root, no pid file');
    assert.deepStrictEqual(mountsUnder(fs.realpathSync(copy)), []);
  });

  it('the next setup, and `orchestrate clean`, undo what a killed setup left in this checkout\'s root.partial, in one line', async function () {
    skipUnlessRoot(this);
    // ferretdb2 installed, so that setup-ferretdb2.sh only checks it (a minute of debootstrap else)
    const why = ferretdb2Missing(resolveConfig());
    if (why) skip(this, 'ferretdb2 is not installed', why);
    const partial = `${resolveConfig().documentdbRoot}.partial`;
    if (fs.existsSync(partial)) skip(this, 'a setup is installing ferretdb2 now', `${partial} is there`);
    const { invokeOrchestrate } = require('../helpers/cli');
    let root = fakeRoot(partial);
    let pid = leaveRunning(root);
    const cleaned = await invokeOrchestrate(['clean']);
    assert.strictEqual(cleaned.code, 0, cleaned.stderr);
    const said = cleaned.stdout.split('\n').filter((l) => /earlier npm run setup/.test(l));
    assert.deepStrictEqual(said, [`an earlier npm run setup left mounts behind: unmounted /proc in ${root} after ending 1 process(es) left running in it`], cleaned.stdout);
    assert.ok(!alive(pid));
    assert.deepStrictEqual(mountsUnder(root), []);
    fs.rmSync(partial, { recursive: true, force: true });

    root = fakeRoot(partial);
    pid = leaveRunning(root);
    // the killed setup's pid file names a process that is gone
    const pidFile = path.join(path.dirname(partial), '.setup.pid');
    fs.writeFileSync(pidFile, '4194303\n');
    const out = spawnSync('bash', ['scripts/setup-ferretdb2.sh'], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, CLASSICS_SETUP_CACHE: '' } });
    assert.strictEqual(out.status, 0, `${out.stdout}${out.stderr}`);
    assert.strictEqual(out.stderr, '');
    assert.ok(!fs.existsSync(pidFile), 'its own pid file is removed as it ends');
    const lines = out.stdout.split('\n').filter((l) => /earlier npm run setup/.test(l));
    assert.strictEqual(lines.length, 1, out.stdout);
    assert.match(lines[0], /^setup: an earlier npm run setup left mounts behind: unmounted \/proc in \S*root\.partial after ending 1 process\(es\) left running in it$/);
    assert.ok(!alive(pid));
    assert.deepStrictEqual(mountsUnder(root), []);
    assert.ok(!fs.existsSync(partial), 'the half-made root is removed');
  });
});
