'use strict';
// Every error class of the kit in orchestrator/errors.js, the kit's classes where a user sees an
// error, and errors told apart by their class or a server's code, never by their words: the code
// under orchestrator/ is read line by line (comments left out) and held to that.
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { codeOnly, codeFiles, ROOT } = require('../helpers/code-lines');
const errors = require('../../orchestrator/errors');

/** `file:line: code` for each code line of orchestrator/'s JavaScript that `hit` holds for. */
function linesWhere(hit) {
  return codeFiles(['orchestrator']).filter((f) => f.endsWith('.js')).flatMap((file) => codeOnly(fs.readFileSync(path.join(ROOT, file), 'utf8'))
    .split('\n').flatMap((line, i) => (hit(line) ? [`${file}:${i + 1}: ${line.trim()}`] : [])));
}

const inFiles = (found, allowed) => found.filter((hit) => !Object.keys(allowed).some((file) => hit.startsWith(`${file}:`)));

describe('the kit\'s errors', () => {
  it('defines every error class in orchestrator/errors.js', () => {
    // the kit's shell is a program of its own with mongosh's error family (kit-shell/api/errors.js)
    const allowed = {
      'orchestrator/errors.js': 'the kit\'s classes',
      'orchestrator/kit-shell/api/errors.js': 'the kit\'s shell\'s own, beside @mongosh/errors\' classes, as a script meets them in mongosh',
      'orchestrator/kit-shell/api/lean.js': 'UseDriver: a signal inside the lean path that the call goes to the driver, never thrown past it',
    };
    assert.deepEqual(inFiles(linesWhere((l) => /\bclass\s+\w+\s+extends\s+\w*Error\b/.test(l)), allowed), []);
  });

  it('throws no bare Error: each says its kind by its class', () => {
    const allowed = { 'orchestrator/kit-shell/evaluator.js': 'a value a script threw that is not an error, thrown on as mongosh does' };
    assert.deepEqual(inFiles(linesWhere((l) => /\bnew Error\(/.test(l)), allowed), []);
  });

  it('tells no error apart by its message', () => {
    const allowed = {
      'orchestrator/servers/atlas.js': 'Atlas\'s proxy answers a command its tier does not allow and a missing privilege with one code, 8000: its words are all that tell them apart',
      'orchestrator/run/ownership.js': 'the same code 8000 of Atlas\'s proxy, for a refusal for want of a privilege',
      'orchestrator/kit-shell/api/connection.js': 'devtools-connect\'s own fast-failure test, run as mongosh runs it',
    };
    const reads = linesWhere((l) => /\b(message|errmsg)\b/.test(l) && /\.(test|exec|match|includes|startsWith|endsWith|search)\(/.test(l));
    assert.deepEqual(inFiles(reads, allowed), []);
  });

  it('tells a server\'s refusal by its code, in the error or its cause', () => {
    const { MongoServerSelectionError } = require('mongodb');
    const refused = Object.assign(new Error('Authentication failed.'), { code: 18, codeName: 'AuthenticationFailed' });
    assert.deepEqual(errors.serverCodes(refused), [errors.SERVER_CODES.AuthenticationFailed]);
    // the driver's server selection error carries the server's error as its cause (and its code)
    const selection = new MongoServerSelectionError('Server selection timed out', { error: refused, servers: new Map() });
    assert.ok(errors.serverCodes(selection).includes(errors.SERVER_CODES.AuthenticationFailed));
    assert.deepEqual(errors.serverCodes(new Error('Authentication failed.')), []);
  });

  it('an ExpressionError is a ScenarioError: a scaling declaration\'s arithmetic is the scenario\'s', () => {
    const { parseExpression } = require('../../orchestrator/sizing/expression');
    assert.throws(() => parseExpression('2 * sqrt(DOCS)'), (err) => err instanceof errors.ExpressionError && err instanceof errors.ScenarioError && err.exitCode === 1);
  });
});
