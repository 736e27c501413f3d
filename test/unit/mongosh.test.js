'use strict';
const assert = require('node:assert/strict');
const { defineVariables } = require('../../orchestrator/mongosh');
const { parsePasses, parseSeed } = require('../../orchestrator/cli');

describe('script variables', () => {
  it('defines each variable before the file runs, JSON-encoded', () => {
    assert.equal(defineVariables({ DOCS: 1001, DB_NAME: "classics_x'y", PASS: null, SKIP: undefined }),
      'var DOCS = 1001; var DB_NAME = "classics_x\'y"; var PASS = null;');
  });
  it('refuses a name that is not an identifier', () => {
    assert.throws(() => defineVariables({ 'a;b': 1 }), /not a variable name/);
  });
});

describe('option parsers', () => {
  it('takes whole passes of at least 1', () => {
    assert.equal(parsePasses('21'), 21);
    for (const bad of ['0', '-1', 'x', '1.5', '']) assert.throws(() => parsePasses(bad), /Not a whole number/);
  });
  it('takes a 32-bit seed', () => {
    assert.equal(parseSeed('0'), 0);
    assert.throws(() => parseSeed('4294967296'), /Not a whole number/);
  });
});
