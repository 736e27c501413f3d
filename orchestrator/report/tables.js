'use strict';
// The article's table, measured beside published: a pivot of records on a row field (pass) and
// a group field (collection), each column measured and, where the article has it, published.
const { formatValue } = require('./format');
const { markdownText } = require('./escape');

function uniqueSorted(values) {
  return [...new Set(values)].sort((a, b) => (typeof a === 'number' && typeof b === 'number' ? a - b : String(a).localeCompare(String(b))));
}

/**
 * @param spec      a descriptor table: { title, step?, where?, row, group, columns: [{ field, label, published,
 *                  publishedOnly, format }] }: published adds the article's column beside the measured one,
 *                  publishedOnly shows the article's alone
 * @param measured  measurement records of one server that the table shows (the run model's
 *                  selection: of its step and where; analysis/run-model.js)
 * @param published the article's records it shows (same field names), or []
 * @param groups    the group values in order (the descriptor's collections)
 * @returns {{ header: string[], rows: string[][] }}
 */
function pivotTable(spec, measured, published, groups) {
  const m = measured;
  const p = published;
  // Rows the run measured; the article's other rows belong to `orchestrate figures`. A table of
  // the article's values alone (publishedOnly columns: findings no server here can measure) keeps them.
  const articleOnly = spec.columns.every((c) => c.publishedOnly);
  const rowKeys = uniqueSorted((m.length && !articleOnly ? m : p).map((r) => r[spec.row]));
  const find = (records, row, group) => records.find((r) => r[spec.row] === row && r[spec.group] === group);

  const header = [spec.row];
  for (const group of groups) {
    for (const col of spec.columns) {
      if (col.published || col.publishedOnly) header.push(`${group} ${col.label} (article)`);
      if (!col.publishedOnly) header.push(`${group} ${col.label}`);
    }
  }
  const rows = rowKeys.map((row) => {
    const cells = [String(row)];
    for (const group of groups) {
      for (const col of spec.columns) {
        if (col.published || col.publishedOnly) cells.push(formatValue(find(p, row, group)?.[col.field], col.format));
        if (!col.publishedOnly) cells.push(measuredCell(find(m, row, group), col));
      }
    }
    return cells;
  });
  return { header, rows };
}

/** A measured cell; a median of repeats shows its range and coefficient of variation. */
function measuredCell(record, col) {
  const text = formatValue(record?.[col.field], col.format);
  const spread = record?.spread?.[col.field];
  if (!spread) return text;
  return `${text} [${formatValue(spread.min, col.format)}–${formatValue(spread.max, col.format)}, cv ${(spread.cv * 100).toFixed(1)}%]`;
}

/** A table's column groups: its own `groups`, else the scenario's collections. */
function tableGroups(scenario, spec) {
  return spec.groups || scenario.collections;
}

/**
 * A table as markdown. Every cell is text (a record's values, a server's name), never markup,
 * but for a cell the kit writes as { markdown } (a word in bold).
 */
function toMarkdown({ header, rows }) {
  const cell = (c) => (c && typeof c === 'object' && typeof c.markdown === 'string' ? c.markdown : markdownText(c));
  const line = (cells) => `| ${cells.map(cell).join(' | ')} |`;
  const align = header.map((_, i) => (i === 0 ? '---' : '---:'));
  return [line(header), `| ${align.join(' | ')} |`, ...rows.map(line)].join('\n');
}

module.exports = { pivotTable, toMarkdown, tableGroups };
