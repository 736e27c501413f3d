'use strict';
// The kit's --eval begins with the run's sizes as `var NAME = <JSON>;` statements
// (orchestrator/mongosh.js defineVariables) and ends with `db = connect(...)`. Such a statement
// calls nothing, so mongosh's async rewriter has nothing to do to it: run as it stands, it
// defines the same global with the same value. Splitting those statements off lets the rest of
// the eval, the same text on every run, come from the rewrite cache, so a step starts without
// loading Babel (about 350 ms). Anything that is not exactly such a statement ends the prefix.

const DECLARATION_START = /^\s*var\s+([A-Za-z_$][\w$]*)\s*=\s*/;

/** Index just past the JSON value starting at start, or -1: strings, arrays, objects, scalars. */
function jsonValueEnd(code, start) {
  let depth = 0;
  for (let i = start; i < code.length; i++) {
    const c = code[i];
    if (c === '"') {
      for (i++; i < code.length && code[i] !== '"'; i++) if (code[i] === '\\') i++;
      if (i >= code.length) return -1;
      if (depth === 0) return i + 1;
    } else if (c === '[' || c === '{') {
      depth++;
    } else if (c === ']' || c === '}') {
      depth--;
      if (depth < 0) return -1;
      if (depth === 0) return i + 1;
    } else if (depth === 0 && /[\s;,)]/.test(c)) {
      return i;
    }
  }
  return depth === 0 ? code.length : -1;
}

/**
 * { declarations, rest }: the leading `var NAME = <JSON>;` statements of code (as one string to
 * run as it is) and everything after them (to rewrite). declarations is '' when there are none.
 */
function splitLiteralVars(code) {
  let at = 0;
  let declarations = '';
  for (;;) {
    const head = DECLARATION_START.exec(code.slice(at));
    if (!head) break;
    const valueStart = at + head[0].length;
    const valueEnd = jsonValueEnd(code, valueStart);
    if (valueEnd < 0) break;
    const value = code.slice(valueStart, valueEnd);
    try { JSON.parse(value); } catch { break; }
    const semicolon = /^\s*;/.exec(code.slice(valueEnd));
    if (!semicolon) break;
    declarations += `var ${head[1]} = ${value};\n`;
    at = valueEnd + semicolon[0].length;
  }
  return { declarations, rest: code.slice(at) };
}

module.exports = { splitLiteralVars };
