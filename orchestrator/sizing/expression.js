'use strict';
// The arithmetic a scenario's scaling declaration writes its steps' work in ("2 * DOCS",
// "TOTAL * pow(10, floor(log10(TOTAL)))"): numbers, size variables, + - * / and parentheses, and
// five functions (min and max for a cost that starts past a threshold, such as data beyond a cache). Parsed once into a tree, never handed to eval, so a descriptor can only ever
// compute a number from its sizes.

const { ExpressionError } = require('../errors');

const FUNCTIONS = { floor: Math.floor, log10: Math.log10, pow: Math.pow, min: Math.min, max: Math.max };

function tokenize(text) {
  const tokens = [];
  const re = /\s*(?:(\d+(?:\.\d+)?)|([A-Za-z_][A-Za-z0-9_]*)|([-+*/(),]))/y;
  let at = 0;
  while (at < text.length) {
    if (/^\s*$/.test(text.slice(at))) break;
    re.lastIndex = at;
    const m = re.exec(text);
    if (!m) throw new ExpressionError(`cannot read "${text.slice(at).trim()}"`);
    tokens.push(m[1] !== undefined ? { number: Number(m[1]) } : m[2] !== undefined ? { name: m[2] } : { op: m[3] });
    at = re.lastIndex;
  }
  return tokens;
}

/** { names, evaluate(vars) } for an expression's text; throws ExpressionError saying what is wrong. */
function parseExpression(text) {
  if (typeof text !== 'string' || !text.trim()) throw new ExpressionError('an empty expression');
  const tokens = tokenize(text);
  let i = 0;
  const peek = () => tokens[i];
  const take = (op) => {
    if (peek()?.op !== op) throw new ExpressionError(`expected "${op}" in "${text}"`);
    i += 1;
  };
  const names = new Set();
  function factor() {
    const t = tokens[i++];
    if (!t) throw new ExpressionError(`"${text}" ends too soon`);
    if (t.number !== undefined) return () => t.number;
    if (t.op === '(') { const inner = sum(); take(')'); return inner; }
    if (t.op === '-') { const inner = factor(); return (v) => -inner(v); }
    if (t.name && peek()?.op === '(') {
      const fn = FUNCTIONS[t.name];
      if (!fn) throw new ExpressionError(`no function ${t.name} (there are ${Object.keys(FUNCTIONS).join(', ')})`);
      take('(');
      const args = [sum()];
      while (peek()?.op === ',') { i += 1; args.push(sum()); }
      take(')');
      if (args.length !== fn.length) throw new ExpressionError(`${t.name} takes ${fn.length} argument(s)`);
      return (v) => fn(...args.map((a) => a(v)));
    }
    if (t.name) {
      names.add(t.name);
      return (v) => {
        if (typeof v[t.name] !== 'number') throw new ExpressionError(`no value for ${t.name}`);
        return v[t.name];
      };
    }
    throw new ExpressionError(`unexpected "${t.op}" in "${text}"`);
  }
  /** A left-to-right run of next() joined by the operators given (* and /, or + and -). */
  const chain = (next, ops) => () => {
    let left = next();
    while (peek()?.op in ops) {
      const op = ops[tokens[i++].op];
      const l = left;
      const r = next();
      left = (v) => op(l(v), r(v));
    }
    return left;
  };
  const product = chain(factor, { '*': (a, b) => a * b, '/': (a, b) => a / b });
  const sum = chain(product, { '+': (a, b) => a + b, '-': (a, b) => a - b });
  const root = sum();
  if (i < tokens.length) throw new ExpressionError(`unexpected "${tokens[i].op ?? tokens[i].name ?? tokens[i].number}" in "${text}"`);
  return { text, names, evaluate: (vars) => root(vars) };
}

/** The value of an expression's text for these sizes. */
function evaluate(text, vars) {
  return parseExpression(text).evaluate(vars);
}

module.exports = { parseExpression, evaluate, ExpressionError, FUNCTIONS };
