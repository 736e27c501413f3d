'use strict';
// Every script of every scenario pasted into a mongosh prompt, as a user pastes it: the sizes as
// `var X = n;` lines, then the script's text, on mongosh's standard input (mongosh reads it line
// by line, as typed, so a statement split where a line could end, or a function used above its
// declaration, fails here where `--file` would pass). The scenarios are found by reading
// shell/*/scenario.json. Each scenario's steps are pasted in order into one mongosh session. A user
// pastes a script again in the same session: every name the first paste declared is declared again,
// which a top-level const, let or class refuses. V8 says so of every script without a server (the
// first describe below); one scenario's first step, the shortest, is pasted a second time in its
// session as well, to see mongosh take a whole script again (each paste of a script costs mongosh
// about 10 ms of CPU a line: pasting each scenario's first step twice cost a quarter of the file). The sizes
// are the smallest each scenario allows (scaling.vary's least; its fixed sizes at smoke), on the
// fastest server this machine has: a paste checks that the text runs at a prompt, not a timing.
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawn } = require('node:child_process');
const { startTestServer, unavailableReason, skipUnless } = require('../helpers/servers');

const SHELL = path.resolve(__dirname, '..', '..', 'shell');
const MONGOSH = require.resolve('mongosh/bin/mongosh.js');
// What mongosh prints for an error at its prompt, and the errors a script could raise.
const ERROR_LINE = /Uncaught|SyntaxError|ReferenceError|TypeError|RangeError|Mongo\w*Error|MongoshInvalidInputError/;

const scenarios = fs.readdirSync(SHELL, { withFileTypes: true })
  .filter((e) => e.isDirectory() && fs.existsSync(path.join(SHELL, e.name, 'scenario.json')))
  .map((e) => ({ dir: path.join(SHELL, e.name), ...JSON.parse(fs.readFileSync(path.join(SHELL, e.name, 'scenario.json'), 'utf8')) }))
  .sort((a, b) => a.name.localeCompare(b.name));

/**
 * The paired rounds a pasted script is cut into: the fewest a script takes (a paste checks that
 * the text runs at a prompt, not a verdict, and the default 8 made embedded-comments' paste 74 s).
 */
const PASTE_ROUNDS = 2;

/** The fastest kinds first: the paste runs on the first this machine can start. */
const PASTE_KINDS = ['mongod', 'ferretdb2', 'ferretdb', 'ferretdb-pg'];

/** The smallest size of each variable a scenario allows: scaling.vary's least (or first value); a fixed one at smoke. */
function smallestSizes(scenario) {
  const least = Object.fromEntries(Object.entries(scenario.scaling?.vary || {}).map(([k, v]) => [k, v.least ?? v.values?.[0]]));
  return { ...scenario.sizes.smoke, ...least };
}

/** The lines a user types before pasting a step's script: its sizes and constants, and ROUNDS where the script reads it. */
function sizeLines(scenario, step, script) {
  const rounds = /\bROUNDS\b/.test(script) ? { ROUNDS: PASTE_ROUNDS } : {};
  const sizes = smallestSizes(scenario);
  const vars = { ...(step.constants || {}), ...Object.fromEntries((step.params || []).map((p) => [p, sizes[p]])), ...rounds };
  return Object.entries(vars).map(([k, v]) => `var ${k} = ${JSON.stringify(v)};`).join('\n');
}

/** The line printed between two pastes of one session, so that its output is told apart by paste. */
const MARK = 'classics-paste-mark';

/** Pastes text into `mongosh URI --quiet`; resolves to { code, output }. */
function paste(uri, text, home) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [MONGOSH, uri, '--quiet'], { env: { ...process.env, HOME: home }, stdio: ['pipe', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d) => { output += d; });
    child.stderr.on('data', (d) => { output += d; });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
    child.stdin.end(`${text}\n`);
  });
}

/** Every script of every scenario: { scenario, script, file }. */
const scripts = scenarios.flatMap((scenario) => [...new Set(scenario.steps.map((step) => step.script))]
  .map((script) => ({ scenario: scenario.name, script, file: path.join(scenario.dir, script) })));

/**
 * The error a second run of `code` in one global scope throws as it starts, before any statement
 * runs (V8 instantiates a script's global declarations first): a name a top-level const, let or
 * class declared in the first. Null where the second run starts (its first statement that needs
 * the shell then throws, which is no concern here).
 */
function secondDeclarationError(code) {
  const vm = require('node:vm');
  const context = vm.createContext({});
  const script = new vm.Script(code);
  const run = () => { try { script.runInContext(context, { timeout: 2000 }); return null; } catch (e) { return e; } };
  run();
  const second = run();
  // the error is the context's own SyntaxError (another realm's: instanceof does not hold)
  return second?.name === 'SyntaxError' && /already been declared/.test(second.message) ? second.message : null;
}

describe('every script declares its names so that a second paste in one session takes them', () => {
  it('finds a top-level let, const or class declared twice (the check can fail)', () => {
    assert.match(secondDeclarationError('var a = 1; const b = 2; function f() {}'), /'b' has already been declared/);
    assert.match(secondDeclarationError('class C {}'), /'C' has already been declared/);
    assert.equal(secondDeclarationError('var a = 1; function f() { const b = 2; } if (typeof X === "undefined") var X = 3; db.x.find();'), null);
  });

  for (const { scenario, script, file } of scripts) {
    it(`${scenario}/${script} declares no top-level const, let or class`, () => {
      assert.equal(secondDeclarationError(fs.readFileSync(file, 'utf8')), null);
    });
  }
});

/** The scenario whose first step is the shortest script: the one pasted a second time. */
const pastedTwice = scenarios.map((s) => ({ name: s.name, lines: fs.readFileSync(path.join(s.dir, s.steps[0].script), 'utf8').split('\n').length }))
  .sort((a, b) => a.lines - b.lines || a.name.localeCompare(b.name))[0]?.name;

describe('every script pasted into a mongosh prompt', function () {
  this.timeout(180000);
  let server;
  let home;
  const kind = PASTE_KINDS.find((k) => !unavailableReason(k)) ?? PASTE_KINDS.at(-1);

  before(async function () {
    this.timeout(120000);
    if (!process.env.CLASSICS_TEST_URI) skipUnless(this, kind);
    server = await startTestServer(kind);
    // a mongosh home of the test's own: the user's ~/.mongodb is not read, and no log is kept
    home = fs.mkdtempSync(path.join(os.tmpdir(), 'classics-paste-home-'));
    fs.mkdirSync(path.join(home, '.mongodb', 'mongosh'), { recursive: true });
    fs.writeFileSync(path.join(home, '.mongodb', 'mongosh', 'config'), JSON.stringify({ disableLogging: true }));
  });

  after(async () => {
    if (server) await server.stop();
    if (home) fs.rmSync(home, { recursive: true, force: true });
  });

  it('finds every scenario folder under shell/ by reading it', () => {
    // a folder whose name begins with _ is the kit's own (_blocks: the sources of the scripts' stamped blocks), no article
    const folders = fs.readdirSync(SHELL, { withFileTypes: true }).filter((e) => e.isDirectory() && !e.name.startsWith('_')).map((e) => e.name).sort();
    assert.deepEqual(scenarios.map((s) => path.basename(s.dir)), folders, 'a folder under shell/ without a scenario.json, or a scenario the test did not find');
    assert.ok(scenarios.length >= 5, `${scenarios.length} scenarios`);
  });

  for (const scenario of scenarios) {
    const pastes = [...scenario.steps.map((step) => ({ step, again: false })), ...(scenario.name === pastedTwice ? [{ step: scenario.steps[0], again: true }] : [])];
    const outputs = new Map();
    describe(`${scenario.name}, pasted into one mongosh session`, () => {
      before(async () => {
        // every paste of the scenario in one session, a marked line after each
        const text = pastes.map(({ step }, i) => {
          const script = fs.readFileSync(path.join(scenario.dir, step.script), 'utf8');
          return `${sizeLines(scenario, step, script)}\n${script}\nprint('${MARK} ${i}');`;
        }).join('\n');
        const { output } = await paste(server.uri, text, home);
        let from = 0;
        pastes.forEach((_, i) => {
          const at = output.indexOf(`${MARK} ${i}`, from);
          outputs.set(i, at < 0 ? output.slice(from) : output.slice(from, at));
          from = at < 0 ? output.length : at + `${MARK} ${i}`.length;
        });
      });

      pastes.forEach(({ step, again }, i) => {
        it(`${step.script} (step ${step.name})${again ? ' pasted a second time in the same session' : ''} pastes cleanly`, () => {
          const output = outputs.get(i);
          const where = `${scenario.name}/${step.script}${again ? ' pasted a second time' : ''}`;
          const errors = output.split('\n').filter((l) => ERROR_LINE.test(l));
          assert.deepEqual(errors, [], `${where} printed errors:\n${output.slice(-3000)}`);
          const measurements = output.split('\n').filter((l) => l.includes('{"scenario":'));
          assert.ok(measurements.length > 0, `${where} printed no measurement (did the paste before it stop the session?):\n${output.slice(-3000)}`);
          for (const line of measurements) JSON.parse(line.slice(line.indexOf('{"scenario":')));
        });
      });
    });
  }
});
