'use strict';
// The kit's shell's parts that need no server: the list of mongosh's methods it stubs, the Node
// built-ins it makes globals, its arguments, and the sizes it runs without the rewriter.
const assert = require('node:assert/strict');
const vm = require('node:vm');
const { collectMongoshApiNames } = require('../../orchestrator/kit-shell/tools/mongosh-api-names');
const stored = require('../../orchestrator/kit-shell/api/mongosh-api.json');
const { nodeBuiltinModules } = require('../../orchestrator/kit-shell/context');
const { parseArgs } = require('../../orchestrator/kit-shell/cli');
const { splitLiteralVars } = require('../../orchestrator/kit-shell/literal-vars');
const { defineVariables } = require('../../orchestrator/run/shells');

describe('the kit\'s shell', () => {
  it('knows every method of the installed mongosh (re-run tools/mongosh-api-names.js after an upgrade)', () => {
    assert.deepEqual(stored, collectMongoshApiNames());
  });

  it('makes the same Node built-ins globals as mongosh (node:repl\'s list)', () => {
    assert.deepEqual(nodeBuiltinModules(), require('node:repl').builtinModules.filter((n) => !n.startsWith('_')));
  });

  it('takes the arguments the kit gives mongosh, and refuses an option it lacks', () => {
    assert.deepEqual(parseArgs(['--nodb', '--quiet', '--norc', '--eval', 'x', '--file', 'a.js']),
      { evals: ['x'], files: ['a.js'], connectionSpecifier: null, nodb: true });
    assert.throws(() => parseArgs(['--tls']), /KitShellUnsupported|--tls/);
  });

  it('runs the run\'s sizes as they stand and leaves the rest to the rewriter', () => {
    const vars = { DOCS: 1001, NAME: 'a "b";', LIST: [1, { x: 2 }] };
    const code = `${defineVariables(vars)} db = connect(process.env.X);`;
    const { declarations, rest } = splitLiteralVars(code);
    assert.equal(rest.trim(), 'db = connect(process.env.X);');
    const context = vm.createContext({});
    vm.runInContext(declarations, context);
    assert.deepEqual(JSON.parse(JSON.stringify({ DOCS: context.DOCS, NAME: context.NAME, LIST: context.LIST })), vars);
    assert.equal(splitLiteralVars('var x = f(); var y = 1;').declarations, '');
  });
});
