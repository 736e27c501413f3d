'use strict';
// A source file's code without its comments, for tests that hold the code to a rule a comment may
// explain (no article named in orchestrator/, no error told apart by its message).
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..', '..');
const CODE_FILE = /\.(js|c)$/;

/**
 * A JavaScript or C source with its comments blanked (newlines kept, so lines keep their numbers)
 * and its strings, template literals and regular expressions kept: what a reader calls its code.
 * A slash starts a regular expression where an operand may start (after an operator, an opening
 * bracket, a comma, a keyword such as return), as a tokenizer decides it.
 */
function codeOnly(text) {
  let out = '';
  let i = 0;
  let last = ''; // the last significant character of code, to tell a regex from a division
  const blank = (s) => s.replace(/[^\n]/g, ' ');
  const skipQuoted = (quote) => {
    const start = i;
    i += 1;
    while (i < text.length && text[i] !== quote) {
      if (text[i] === '\\') i += 1;
      else if (quote === '`' && text[i] === '$' && text[i + 1] === '{') {
        // a template's expression: balance its braces (strings inside it are rare in this kit)
        let depth = 0;
        do {
          if (text[i] === '{') depth += 1;
          else if (text[i] === '}') depth -= 1;
          i += 1;
        } while (i < text.length && depth > 0);
        continue;
      }
      i += 1;
    }
    i += 1;
    out += text.slice(start, i);
    last = quote;
  };
  while (i < text.length) {
    const c = text[i];
    const next = text[i + 1];
    if (c === '/' && next === '/') {
      const end = text.indexOf('\n', i);
      const to = end < 0 ? text.length : end;
      out += blank(text.slice(i, to));
      i = to;
    } else if (c === '/' && next === '*') {
      const end = text.indexOf('*/', i + 2);
      const to = end < 0 ? text.length : end + 2;
      out += blank(text.slice(i, to));
      i = to;
    } else if (c === '\'' || c === '"' || c === '`') {
      skipQuoted(c);
    } else if (c === '/' && (last === '' || /[(,=:[!&|?{};+\-*%<>~^]/.test(last) || /\b(return|typeof|case|in|of)$/.test(out.trimEnd()))) {
      // a regular expression literal, its classes may hold a slash
      const start = i;
      let inClass = false;
      i += 1;
      while (i < text.length && text[i] !== '\n' && (inClass || text[i] !== '/')) {
        if (text[i] === '\\') i += 1;
        else if (text[i] === '[') inClass = true;
        else if (text[i] === ']') inClass = false;
        i += 1;
      }
      i += 1;
      while (/[a-z]/i.test(text[i] || '')) i += 1;
      out += text.slice(start, i);
      last = '/';
    } else {
      out += c;
      if (!/\s/.test(c)) last = c;
      i += 1;
    }
  }
  return out;
}

/** Every code file (.js, .c) under the folders, as paths from the repository's root. */
function codeFiles(dirs) {
  const walk = (dir) => fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' ? [] : walk(rel);
    return CODE_FILE.test(e.name) ? [rel] : [];
  });
  return dirs.flatMap(walk);
}

module.exports = { codeOnly, codeFiles, ROOT };
