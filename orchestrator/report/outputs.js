'use strict';
// A command's outputs as bytes in memory, then written in one place (hyperfine's src/export/: one
// interface, the formats picked from a list, each exporter returning bytes). An exporter is
// { format, render(subject, rendered) → [{ file, bytes }], needs, optional }:
// - format: what --format names it by: the file it writes, or `charts` for a set of PNGs;
// - render: its outputs from the subject (a report's page, a Comparison, the scenarios) and the
//   outputs rendered before it (rendered: Map format → [{ file, bytes }]), which it may embed;
// - needs: the formats it embeds, rendered for it whether or not they are written (report.html
//   embeds the charts' bytes);
// - optional: left out of the default (first-screen.png needs Chromium).
// run, report, compare and figures each hand their list to renderOutputs and write what it yields
// with writeOutputs, exporter by exporter in the list's order, so what comes first (the data) is
// on disk even where a later one (a chart) cannot be drawn.
const path = require('node:path');
const { writeFileAtomic } = require('../fs-atomic');
const { UnknownFormatError } = require('../errors');

/** The formats a command writes when --format is not given. */
const defaultFormats = (exporters) => exporters.filter((e) => !e.optional).map((e) => e.format);

/**
 * The formats a --format value names (a comma list, in any order), checked against the command's
 * exporters; an unknown or empty one is an UnknownFormatError (one line, exit code 2).
 */
function parseFormats(value, exporters, command) {
  const known = exporters.map((e) => e.format);
  const asked = String(value).split(',').map((f) => f.trim()).filter(Boolean);
  if (!asked.length) throw new UnknownFormatError({ command, format: String(value), known });
  const unknown = asked.find((f) => !known.includes(f));
  if (unknown) throw new UnknownFormatError({ command, format: unknown, known });
  return [...new Set(asked)];
}

/** --format's option for a command: [flags, description, parser], the default said from the list. */
function formatOption(command, exporters) {
  const optional = exporters.filter((e) => e.optional).map((e) => e.format);
  return [
    '--format <list>',
    `the outputs to write, a comma list of: ${exporters.map((e) => e.format).join(', ')} (default: ${optional.length ? `all but ${optional.join(', ')}` : 'all'})`,
    (value) => parseFormats(value, exporters, command),
  ];
}

/**
 * Renders the chosen formats (default: defaultFormats) of a subject, and what they embed; yields,
 * exporter by exporter in the list's order, the outputs of each chosen one: [{ file, bytes, format }].
 */
async function* renderOutputs(exporters, subject, formats = defaultFormats(exporters)) {
  const chosen = new Set(formats);
  const wanted = new Set(formats);
  // what a chosen exporter embeds is rendered too; an exporter needs only those before it
  for (const e of [...exporters].reverse()) if (wanted.has(e.format)) for (const need of e.needs || []) wanted.add(need);
  const rendered = new Map();
  for (const exporter of exporters) {
    if (!wanted.has(exporter.format)) continue;
    const outputs = (await exporter.render(subject, rendered)).map(({ file, bytes }) => ({ file, bytes, format: exporter.format }));
    rendered.set(exporter.format, outputs);
    if (chosen.has(exporter.format)) yield outputs;
  }
}

/** Writes outputs ([{ file, bytes }]) into dir, each file whole or not at all; returns their file names. */
function writeOutputs(outputs, dir) {
  for (const { file, bytes } of outputs) writeFileAtomic(path.join(dir, file), bytes);
  return outputs.map(({ file }) => file);
}

/** Renders and writes a subject's chosen outputs into dir, each exporter's as soon as it is rendered; returns every output written. */
async function writeRendered(exporters, subject, formats, dir) {
  const written = [];
  for await (const outputs of renderOutputs(exporters, subject, formats)) {
    writeOutputs(outputs, dir);
    written.push(...outputs);
  }
  return written;
}

/** One file's exporter: render(subject, rendered) gives its text or bytes. */
const oneFile = (file, render, more = {}) => ({
  format: file, ...more,
  render: async (subject, rendered) => [{ file, bytes: asBytes(await render(subject, rendered)) }],
});

/** Text as its UTF-8 bytes; bytes as they are. */
const asBytes = (data) => (Buffer.isBuffer(data) ? data : Buffer.from(data, 'utf8'));

module.exports = { renderOutputs, writeOutputs, writeRendered, parseFormats, formatOption, defaultFormats, oneFile, asBytes };
