'use strict';
// Runs script text in the shell's context as mongosh's evaluator does (shell-evaluator's
// innerEval, cli-repl's loadExternalCode and load()): a whole input that is a direct shell
// command (`exit`, `use x` ...) runs as that command; anything else is rewritten by
// async-rewriter2, with the runtime support code in front of the first script (and, once,
// in Node's own realm: main-realm-support.js), run as a vm.Script, and its completion value
// awaited. A thrown value that is not an error becomes Error(<the value as mongosh prints it>).
const fs = require('node:fs');
const path = require('node:path');
const vm = require('node:vm');
const { splitLiteralVars } = require('./literal-vars');
const { installMainRealmSupport } = require('./main-realm-support');
const { formatOutput } = require('./api/printing');
const { SHELL_API_TYPE } = require('./api/protocol');

const DIRECT_COMMANDS = new Set(['use', 'show', 'exit', 'quit', 'it', 'cls']);

function isErrorLike(value) {
  return !!value && (value[SHELL_API_TYPE] ?? null) === null &&
    ((value.message !== undefined && typeof value.stack === 'string') || (value.code !== undefined && value.errmsg !== undefined));
}

class ScriptEvaluator {
  constructor({ context, rewriter }) {
    this.context = context;
    this.rewriter = rewriter;
    this.supportApplied = false;
  }

  /** The completion value of code (awaited), as mongosh's eval gives it. */
  async evaluate(code, filename) {
    const command = this.directCommand(code);
    if (command) return command();
    const { declarations, rest } = splitLiteralVars(code);
    if (declarations) new vm.Script(declarations, { filename }).runInContext(this.context);
    if (!rest.trim()) return undefined;
    let rewritten = this.rewriter.rewrite(rest);
    if (!this.supportApplied) {
      const support = this.rewriter.supportCode();
      installMainRealmSupport(support);
      rewritten = `${support};\n${rewritten}`;
      this.supportApplied = true;
    }
    try {
      return await new vm.Script(rewritten, { filename }).runInContext(this.context);
    } catch (err) {
      if (!isErrorLike(err)) throw new Error(formatOutput({ value: err }, { colors: false }));
      throw err;
    }
  }

  /** `exit`, `use test` ...: a whole input whose first word is one of mongosh's direct commands. */
  directCommand(code) {
    const trimmed = code.trim();
    const argv = trimmed.replace(/;$/, '').split(/\s+/g);
    const name = argv.shift();
    if (!DIRECT_COMMANDS.has(name) || (argv[0] ?? '').startsWith('(')) return null;
    const fn = this.context[name];
    return () => fn(...argv);
  }

  /** load(file) and --file: the file evaluated with __filename and __dirname set meanwhile. */
  async loadFile(filename) {
    const absolutePath = path.resolve(filename);
    const contents = await fs.promises.readFile(absolutePath, 'utf8');
    const { context } = this;
    const previous = context.__filename;
    context.__filename = absolutePath;
    context.__dirname = path.dirname(absolutePath);
    try {
      await this.evaluate(contents, absolutePath);
    } finally {
      if (previous) {
        context.__filename = previous;
        context.__dirname = path.dirname(previous);
      } else {
        delete context.__filename;
        delete context.__dirname;
      }
    }
  }
}

module.exports = { ScriptEvaluator, isErrorLike };
