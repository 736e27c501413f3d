'use strict';
// The global scope a script runs in, built as mongosh builds its non-interactive one
// (cli-repl mongosh-repl.js, jsContext "plain-vm", then shell-api's setCtx): a vm context with
// JavaScript's own built-ins, Node's globals copied in by descriptor, Node's built-in modules as
// lazy globals (fs, path ...), `global`, a require() that resolves from the working directory
// (the kit runs scripts from its root, so require('hdr-histogram-js') finds the kit's package),
// the main realm's Date, `crypto` as node:crypto, a console whose log/info/warn/error are
// print(), then the shell's globals and `db`. Top-level vars of every --eval and --file land on
// this one global object, so they are shared as in mongosh.
//
// One difference in how, none in what: mongosh's vm.createContext() gives a "contextified"
// global, whose every global read and write goes through Node's C++ interceptors (about 1 µs a
// write, more with cold caches: 20-30 µs per operation of a scenario loop, measured). Node 20.18+
// can give a context with an ordinary global object instead (vm.constants.DONT_CONTEXTIFY),
// where the scripts' top-level vars are ordinary globals at ordinary speed. The context is built
// the same way on it; older Node falls back to mongosh's kind.
const path = require('node:path');
const vm = require('node:vm');
const { Console } = require('node:console');
const { createRequire } = require('node:module');
const { MongoshInvalidInputError, CommonErrors } = require('./api/errors');
const { isDatabase } = require('./api/shell');

/**
 * The module names mongosh makes lazy globals: node:repl's builtinModules, which is
 * node:module's list without internal (_-prefixed) names. Computed here rather than read from
 * node:repl, because loading node:repl loads node:domain, which hooks every EventEmitter in the
 * process, the driver's too (a test holds the two lists equal).
 */
function nodeBuiltinModules() {
  return require('node:module').builtinModules.filter((name) => !name.startsWith('_'));
}

/** Wraps a main-realm function in one of the context's own (see main-realm-support.js). */
function contextFunctionMaker(context) {
  return vm.runInContext('(function (impl) { return function () { return Reflect.apply(impl, this, arguments); }; })', context);
}

/**
 * The context for one shell: globals are the shell's (api/shell.js), of which the functions
 * named in shellFunctions are given to the script as functions of its own realm.
 */
async function createScriptContext({ globals, shellFunctions, state, output, cwd = process.cwd() }) {
  const context = vm.constants?.DONT_CONTEXTIFY ? vm.createContext(vm.constants.DONT_CONTEXTIFY) : vm.createContext();
  const jsBuiltins = new Set(vm.runInContext(
    'globalThis[Symbol.for("@@mongosh.usingPlainVMContext")] = true; Object.getOwnPropertyNames(globalThis)', context));
  for (const name of Object.getOwnPropertyNames(globalThis)) {
    if (!jsBuiltins.has(name)) Object.defineProperty(context, name, { ...Object.getOwnPropertyDescriptor(globalThis, name) });
  }
  for (const builtin of nodeBuiltinModules()) {
    let value;
    Object.defineProperty(context, builtin, {
      enumerable: false,
      configurable: true,
      get() { return (value ??= require(builtin)); },
      set(v) { value = v; },
    });
  }
  context.global = context;
  context.require = createRequire(path.join(cwd, 'index.js'));
  context.console = new Console({ stdout: output, stderr: output, colorMode: false });
  context.Date = Date;
  // mongosh replaces Node's WebCrypto global by the node:crypto module, as scripts expect
  const cryptoDescriptor = Object.getOwnPropertyDescriptor(context, 'crypto') ?? {};
  if (cryptoDescriptor.value?.subtle || cryptoDescriptor.get?.call(null)?.subtle) {
    delete context.crypto;
    context.crypto = await import('node:crypto');
  }

  const asContextFunction = contextFunctionMaker(context);
  for (const [name, value] of Object.entries(globals)) {
    context[name] = shellFunctions.has(name) ? asContextFunction(value) : value;
  }
  for (const key of ['log', 'warn', 'info', 'error']) {
    context.console[key] = (...args) => context.print(...args);
  }
  Object.defineProperty(context, 'db', {
    configurable: true,
    get: () => state.currentDb,
    set: (value) => {
      if (!isDatabase(value)) throw new MongoshInvalidInputError("Cannot reassign 'db' to non-Database type", CommonErrors.InvalidOperation);
      state.currentDb = value;
    },
  });
  return context;
}

module.exports = { createScriptContext, nodeBuiltinModules };
