'use strict';
// Chart configs are plain data (tested as data); rendering turns one into a PNG.
//
// Every chart has ONE y axis: the measured values and the article's are drawn on the same scale,
// so a bar twice as tall is twice as long. Where the run's sizes are not the article's, the values
// are normalised as the chart's spec in scenario.json declares (`normalise`: per operation, per
// document, or relative to a baseline cell), and where the values drawn span more than 10× the
// axis is logarithmic. Each chart also carries, as data, what a page prints under it: the rule
// that decides its findings and what differs from the article.
//
// A chart spec (scenario.json `charts`) may say, beside what it draws (type, x or category, y,
// series, groups, step, where, labels):
//   findings:      the published.json findings it shows; their rule is its caption
//   normalise:     { divideBy: { field } | { sizes: [VARS] } | relativeTo: { field: value... },
//                    scale?, yLabel, says }: how its values are made comparable across sizes
//   sizeVariables: the size variables its values depend on (the caption names only those)
//   articleWrites: the article's write concern where its records do not carry one ("w:0")
//   drawOnly:      [{ where, field, equals, reason?, else }]: records drawn only where field
//                  equals the value (little memory only where the cache was cut); `else` says why not
//   groupLabels:   the legend's words for series values; base: where bars start (1 for ratios)
//   scale:         "linear" to keep a linear axis whatever the span
const { valueAt } = require('../analysis/run-model');
const { markdownText } = require('./escape');
const { ruleText } = require('../analysis/rule-words');
const { ScenarioError } = require('../errors');

const WIDTH = 1000;
const HEIGHT = 560;
/** Past this ratio of the largest value drawn to the smallest, the y axis is logarithmic. */
const LOG_SPAN = 10;
/** A bar no wider than this (pixels): one server's one bar would otherwise fill the chart. */
const BAR_MAX = 90;

// Tableau 10: distinct in colour and in grey, so lines stay apart when printed.
const PALETTE = ['#4e79a7', '#f28e2b', '#59a14f', '#e15759', '#76b7b2', '#edc948', '#b07aa1', '#ff9da7', '#9c755f', '#bab0ac'];
const PUBLISHED_COLOURS = ['#222222', '#777777', '#aaaaaa', '#555555'];
// Groups that measure the same (FerretDB stores both collections alike) would hide one another.
const POINT_STYLES = ['circle', 'triangle', 'rectRot', 'star', 'crossRot'];

/** What DocumentDB's collStats estimates (count × average size from PostgreSQL's statistics); storageSize is the relation's own size. */
const ESTIMATED_FIELDS = ['size', 'avgObjSize'];

/** A claim at a sentence's start: capitalised, but a name that is its first word (usePowerOf2Sizes) left as it is. */
const sentenceStart = (text) => (text.split(' ')[0] === text.split(' ')[0].toLowerCase() ? `${text[0].toUpperCase()}${text.slice(1)}` : text);

function plural(n, word) {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/**
 * The y a record is drawn at, from one source of records (one server's, or the article's): as
 * recorded, or normalised as the spec declares.
 *   divideBy.field: y ÷ the record's own count (comments, iterations, inserted);
 *   divideBy.sizes: y ÷ the sum of those size variables the source ran at;
 *   relativeTo:     y ÷ y of the source's baseline cell (the record matching every field given);
 * and × scale (1000: seconds to ms). null where it cannot be made.
 */
function yOf(normalise, source, field) {
  const raw = (r) => (Number.isFinite(r[field]) ? r[field] : null);
  if (!normalise) return raw;
  const scale = normalise.scale ?? 1;
  if (normalise.relativeTo) {
    const base = source.records.find((b) => Object.entries(normalise.relativeTo).every(([k, v]) => b[k] === v) && Number.isFinite(b[field]) && b[field] !== 0);
    return (r) => (base && raw(r) !== null ? (raw(r) / base[field]) * scale : null);
  }
  const by = normalise.divideBy || {};
  if (by.sizes) {
    const vars = [].concat(by.sizes);
    const sum = source.sizes && vars.every((v) => Number.isFinite(source.sizes[v])) ? vars.reduce((n, v) => n + source.sizes[v], 0) : null;
    return (r) => (sum && raw(r) !== null ? (raw(r) / sum) * scale : null);
  }
  return (r) => {
    const d = valueAt(r, by.field);
    return Number.isFinite(d) && d !== 0 && raw(r) !== null ? (raw(r) / d) * scale : null;
  };
}

/** A line's points from the records it draws (the model's selection: of the spec's step and where). */
function points(records, spec, y) {
  return records
    .filter((r) => Number.isFinite(r[spec.x]) && y(r) !== null)
    .map((r) => ({ x: r[spec.x], y: y(r) }))
    .sort((a, b) => a.x - b.x);
}

/**
 * The min-max range of repeated runs around a measured line, as a shaded band (two datasets, the
 * second filled to the first); none where the records hold no spread. Normalised as the line is.
 */
function spreadBand(records, spec, y, colour, label) {
  const band = records
    .filter((r) => Number.isFinite(r[spec.x]) && r.spread?.[spec.y] && y(r) !== null && r[spec.y])
    .sort((a, b) => a[spec.x] - b[spec.x]);
  if (!band.length) return [];
  const at = (r, end) => r.spread[spec.y][end] * (y(r) / r[spec.y]);
  const edge = { borderWidth: 0, pointRadius: 0, yAxisID: 'y', borderColor: colour, spreadOf: label };
  return [
    { ...edge, label: `${label} min`, data: band.map((r) => ({ x: r[spec.x], y: at(r, 'min') })), fill: false },
    { ...edge, label: `${label} max`, data: band.map((r) => ({ x: r[spec.x], y: at(r, 'max') })), fill: '-1', backgroundColor: `${colour}40` },
  ];
}

/** The legend's name of a server: its real engine and version, its alias only where two would read alike. */
function serverLabels(measured, serverRecords = []) {
  const names = new Map([...measured.keys()].map((server) => {
    const record = serverRecords.find((s) => s.server === server);
    return [server, record?.name ?? server];
  }));
  const counts = new Map();
  for (const n of names.values()) counts.set(n, (counts.get(n) || 0) + 1);
  for (const [server, n] of names) if (counts.get(n) > 1) names.set(server, `${n} (${server})`);
  return names;
}

const groupLabel = (spec, group) => spec.groupLabels?.[group] ?? group;

/**
 * The y axis: logarithmic where the positive values drawn span more than LOG_SPAN×, and the
 * values a log axis cannot draw (zero, negative) taken out; linear otherwise. Never a second one.
 */
function yAxis(datasets, spec, title) {
  const values = datasets.flatMap((d) => d.data.map((p) => (p && typeof p === 'object' ? p.y : p))).filter((v) => Number.isFinite(v));
  const positive = values.filter((v) => v > 0);
  const span = positive.length ? Math.max(...positive) / Math.min(...positive) : 1;
  const log = span > LOG_SPAN && spec.scale !== 'linear';
  let dropped = 0;
  if (log) {
    // a line loses the point; a bar keeps its place in the category, empty
    const onLogAxis = (v) => !Number.isFinite(v) || v > 0;
    for (const d of datasets) {
      const before = d.data.filter((p) => p !== null).length;
      d.data = spec.type === 'bar' ? d.data.map((v) => (onLogAxis(v) ? v : null)) : d.data.filter((p) => onLogAxis(p.y));
      dropped += before - d.data.filter((p) => p !== null).length;
    }
  }
  const axis = log
    ? {
      type: 'logarithmic', position: 'left', title: { display: true, text: `${title} (log scale)` }, ticks: { callback: logTick, autoSkip: false },
      // room above the tallest value and below the smallest, at a labelled tick
      min: niceBelow(Math.min(...positive, ...(Number.isFinite(spec.base) ? [spec.base] : []))),
      max: niceAbove(Math.max(...positive, ...(Number.isFinite(spec.base) ? [spec.base] : []))),
    }
    // from zero, so a line twice as high is twice as much (a spec may say otherwise)
    : { type: 'linear', position: 'left', beginAtZero: spec.beginAtZero !== false, title: { display: true, text: title }, ticks: { callback: tickText } };
  return { axis, log, span, dropped };
}

const COMPACT = new Intl.NumberFormat('en-US', { notation: 'compact', maximumSignificantDigits: 3 });

/** A tick's number: 700M rather than 700,000,000; 0.05 rather than 0.050000000000000003. */
function tickText(value) {
  if (Math.abs(value) >= 100000) return COMPACT.format(value);
  return Math.abs(value) >= 1 || value === 0 ? value.toLocaleString('en-US') : String(Number(value.toPrecision(3)));
}

/** A log axis labels 1, 2 and 5 of each power of ten only: the other ticks' labels would overlap. */
function logTick(value) {
  const mantissa = value / 10 ** Math.floor(Math.log10(value));
  return [1, 2, 5].some((k) => Math.abs(mantissa - k) < 1e-9) ? tickText(value) : '';
}

/** The 1-2-5 step at or above v × 1.15, or at or below v ÷ 1.15: a log axis's ends. */
function niceAbove(v) {
  const target = v * 1.15;
  const p = 10 ** Math.floor(Math.log10(target));
  return [1, 2, 5, 10].map((k) => k * p).find((s) => s >= target * (1 - 1e-9));
}
function niceBelow(v) {
  const target = v / 1.15;
  const p = 10 ** Math.floor(Math.log10(target));
  return [5, 2, 1].map((k) => k * p).find((s) => s <= target * (1 + 1e-9));
}

/** A long category label in lines of about 18 characters, so the labels stay level. */
function wrapLabel(text, width = 18) {
  const lines = [];
  for (const word of String(text).split(' ')) {
    const last = lines.length ? lines[lines.length - 1] : null;
    if (last !== null && `${last} ${word}`.length <= width) lines[lines.length - 1] = `${last} ${word}`;
    else lines.push(word);
  }
  return lines.length > 1 ? lines : lines[0];
}

function baseOptions(spec, subtitle) {
  return {
    animation: false,
    plugins: {
      // a title past about 85 characters would run off a 1000-pixel chart: it takes two lines
      title: { display: true, text: wrapLabel(spec.title, 85), font: { size: 18 } },
      subtitle: { display: Boolean(subtitle && subtitle.length), text: subtitle || '' },
      // the bands of repeated runs explain themselves in the caption, not in the legend
      legend: { position: 'bottom', labels: { usePointStyle: true, filter: (item, data) => !data.datasets[item.datasetIndex].spreadOf } },
    },
  };
}

/**
 * What a source of records is, for yOf and the datasets: a server's records (all of them, for a
 * baseline cell; those the chart draws) and the sizes it ran at, or the article's and its sizes.
 * drawn: the model's selection of the chart's records (analysis/run-model.js selectionOf).
 */
function sourcesOf({ drawn, sizes }) {
  return {
    servers: [...drawn.servers].map(([server, sel]) => ({ server, records: sel.all, drawn: sel.drawn, sizes: sizes?.byServer?.get(server) || null })),
    article: { records: drawn.article.all, drawn: drawn.article.selected, sizes: sizes?.article || null },
  };
}

/** The y axis's title: the declared normalisation's, else the spec's. */
function yTitle(spec, normalise) {
  return (normalise && normalise.yLabel) || spec.yLabel || spec.y;
}

/** What the subtitle says is drawn: measured, the article's, or both, and how (never "measured" over nothing measured). */
function drawnText({ anyMeasured, anyArticle, spec, normalise }) {
  const marked = spec.type === 'bar' ? 'hatched' : 'dashed';
  const how = normalise ? `${normalise.says || 'normalised'}; ` : '';
  if (anyMeasured && anyArticle) return `${how}solid: measured; ${marked}: the article's`;
  if (anyMeasured) return `${how}measured; the article printed no figure for this chart`;
  if (anyArticle) return `${how}the article's published values; nothing here was measured`;
  return '';
}

/**
 * The normalisation a chart draws with: its spec's where the sizes differ from the article's, or
 * always where the spec says so (embedded-comments' largest cells write more comments than the
 * article's, one blog a round, at every size).
 */
function normaliseOf(spec, sameScale) {
  if (!spec.normalise) return null;
  return sameScale && !spec.normalise.always ? null : spec.normalise;
}

/**
 * A line chart in the article's form: one line per group (collection) per server, and the
 * article's published series dashed, all on one y axis.
 *
 * @param spec        a descriptor chart: { title, x, y, series, step?, where?, xLabel, yLabel,
 *                    normalise?, drawOnly?, also?: { y, label } a second measured field drawn dotted, yName }
 * @param drawn       { servers: Map server name -> selection, article: selection }: the records it
 *                    draws, as the run model selected them (analysis/run-model.js selectionOf)
 * @param groups      the series values in order (collections)
 * @param sameScale   whether every server ran at the article's sizes (then nothing is normalised)
 * @param serverRecords the run's server records, for the legend's real names
 * @param sizes       { article, byServer: Map server -> sizes }: for a `divideBy.sizes` normalisation
 */
function lineChartConfig({ spec, drawn, groups, sameScale, serverRecords, sizes }) {
  const normalise = normaliseOf(spec, sameScale);
  const { servers, article } = sourcesOf({ drawn, sizes });
  const names = serverLabels(drawn.servers, serverRecords);
  const datasets = [];
  let colour = 0;
  for (const source of servers) {
    const y = yOf(normalise, source, spec.y);
    groups.forEach((group, g) => {
      const ofGroup = source.drawn.filter((r) => r[spec.series] === group);
      const data = points(ofGroup, spec, y);
      if (!data.length) return;
      const c = PALETTE[colour++ % PALETTE.length];
      const label = `${names.get(source.server)} · ${groupLabel(spec, group)}`;
      datasets.push({
        label: `${label}${spec.also ? ` · ${spec.yName || spec.y}` : ''}`, data, borderColor: c, backgroundColor: c, borderWidth: 2,
        pointStyle: POINT_STYLES[g % POINT_STYLES.length], pointRadius: 3 + g, yAxisID: 'y', source: 'measured',
      });
      datasets.push(...spreadBand(ofGroup, spec, y, c, label));
      // a second measured field on the same axis, dotted (the client's time beside the server's)
      if (spec.also) {
        const also = points(ofGroup, { ...spec, y: spec.also.y }, yOf(normalise, source, spec.also.y));
        if (also.length) {
          datasets.push({
            label: `${label} · ${spec.also.label}`, data: also, borderColor: c, backgroundColor: c, borderWidth: 2,
            borderDash: [2, 3], pointStyle: POINT_STYLES[g % POINT_STYLES.length], pointRadius: 2, yAxisID: 'y', source: 'measured',
          });
        }
      }
    });
  }
  const y = yOf(normalise, article, spec.y);
  groups.forEach((group, i) => {
    const data = points(article.drawn.filter((r) => r[spec.series] === group), spec, y);
    if (!data.length) return;
    const c = PUBLISHED_COLOURS[i % PUBLISHED_COLOURS.length];
    datasets.push({
      label: `article · ${groupLabel(spec, group)}`, data, borderColor: c, backgroundColor: c, borderWidth: 2,
      borderDash: [8, 5], pointRadius: 2, pointStyle: 'rect', yAxisID: 'y', source: 'article',
    });
  });
  const { axis, log, span, dropped } = yAxis(datasets, spec, yTitle(spec, normalise));
  // the x axis ends where the data do (21 passes end at pass 21, not at the next round number)
  const xs = datasets.flatMap((d) => d.data.map((p) => p.x));
  const scales = {
    x: {
      type: 'linear', title: { display: true, text: spec.xLabel || spec.x }, ticks: { precision: 0 },
      ...(xs.length ? { min: Math.floor(Math.min(...xs)), max: Math.ceil(Math.max(...xs)) } : {}),
    },
    y: axis,
  };
  const subtitle = drawnText({ anyMeasured: datasets.some((d) => d.source === 'measured'), anyArticle: datasets.some((d) => d.source === 'article'), spec, normalise });
  const config = { type: 'line', data: { datasets }, options: { ...baseOptions(spec, subtitle), parsing: false, scales } };
  return Object.assign(config, { drawn: { normalise, log, span, dropped } });
}

/**
 * A grouped bar chart: categories along x (spec.category), one bar per server and series value,
 * and the article's bars hatched (`hatch: true`, turned into a canvas pattern at render time), all
 * on one y axis. A category nothing is drawn in is left out.
 *
 * @param spec a descriptor chart: { title, category, categories?, series, y, step?, where?, yLabel, normalise?, drawOnly? }
 */
function barChartConfig({ spec, drawn, groups, sameScale, serverRecords, sizes }) {
  const normalise = normaliseOf(spec, sameScale);
  const { servers, article } = sourcesOf({ drawn, sizes });
  const names = serverLabels(drawn.servers, serverRecords);
  const cellValue = (records, y, group, category) => {
    const r = records.find((x) => x[spec.series] === group && x[spec.category] === category);
    return r ? y(r) : null;
  };
  const all = [...servers.flatMap((s) => s.drawn), ...article.drawn];
  const declared = spec.categories || [...new Set(all.map((r) => r[spec.category]))];
  const datasets = [];
  let colour = 0;
  for (const source of servers) {
    const y = yOf(normalise, source, spec.y);
    for (const group of groups) {
      const data = declared.map((c) => cellValue(source.drawn, y, group, c));
      if (data.every((v) => v === null)) continue;
      const c = PALETTE[colour++ % PALETTE.length];
      datasets.push({ label: `${names.get(source.server)} · ${groupLabel(spec, group)}`, data, backgroundColor: c, borderColor: c, borderWidth: 1, maxBarThickness: BAR_MAX, yAxisID: 'y', source: 'measured' });
    }
  }
  const y = yOf(normalise, article, spec.y);
  groups.forEach((group, i) => {
    const data = declared.map((c) => cellValue(article.drawn, y, group, c));
    if (data.every((v) => v === null)) return;
    const c = PUBLISHED_COLOURS[i % PUBLISHED_COLOURS.length];
    datasets.push({
      label: `article · ${groupLabel(spec, group)}`, data, hatch: c, backgroundColor: c, borderColor: c, borderWidth: 2, maxBarThickness: BAR_MAX, yAxisID: 'y', source: 'article',
    });
  });
  // a category with no bar in it is left out (little memory where no server cut its cache)
  const shown = declared.map((_, i) => datasets.some((d) => d.data[i] !== null));
  const categories = declared.filter((_, i) => shown[i]);
  for (const d of datasets) {
    d.data = d.data.filter((_, i) => shown[i]);
    // ratios stand up or hang down from 1 (the article's MongoDB), not from the axis's floor
    if (Number.isFinite(spec.base)) d.base = spec.base;
  }
  const { axis, log, span, dropped } = yAxis(datasets, spec, yTitle(spec, normalise));
  const scales = { x: { title: { display: true, text: spec.xLabel || spec.category } }, y: axis };
  const subtitle = drawnText({ anyMeasured: datasets.some((d) => d.source === 'measured'), anyArticle: datasets.some((d) => d.source === 'article'), spec, normalise });
  const config = {
    type: 'bar',
    // labels wrap only where the categories leave them too little room (about 7 pixels a character)
    data: { labels: categories.map((c) => wrapLabel((spec.categoryLabels && spec.categoryLabels[c]) || String(c), Math.max(18, Math.floor(900 / categories.length / 7)))), datasets },
    options: { ...baseOptions(spec, subtitle), scales },
  };
  return Object.assign(config, { drawn: { normalise, log, span, dropped } });
}

const CHART_BUILDERS = { line: lineChartConfig, bar: barChartConfig };

/** A chart's config from its spec (the builder by spec.type). */
function chartConfig(args) {
  const build = CHART_BUILDERS[args.spec.type];
  if (!build) throw new ScenarioError(`no chart of type ${args.spec.type} (there are ${Object.keys(CHART_BUILDERS).join(', ')})`);
  return build(args);
}

// ---- what a page prints under a chart ------------------------------------------------------

/** A finding's rule as a sentence, from its threshold table (ruleText); null for one decided by no measurement. */
function ruleSentence(finding) {
  const words = ruleText(finding);
  return words ? `${words}.` : null;
}

/**
 * "TOTAL 5,000 (the article's 10,000)", and "50% of the article's size" where every variable was
 * scaled alike; only the variables given (a chart's spec.sizeVariables: those its values depend on).
 */
function sizeDifference(ran, article, only = null) {
  const vars = Object.keys(article).filter((k) => k !== 'passes' && (!only || only.includes(k)) && Number.isFinite(ran[k]) && ran[k] !== article[k]);
  const passes = Number.isFinite(ran.passes) && Number.isFinite(article.passes) && ran.passes !== article.passes
    ? [`${plural(ran.passes, 'pass')} (the article's ${article.passes})`] : [];
  if (!vars.length) return passes.length ? passes.join('') : null;
  const n = (v) => v.toLocaleString('en-US');
  const ratios = vars.map((k) => ran[k] / article[k]);
  const alike = ratios.every((r) => Math.abs(r / ratios[0] - 1) < 0.02);
  const pct = ratios[0] * 100;
  const share = alike ? `${pct >= 10 ? Math.round(pct) : Number(pct.toPrecision(2))}% of the article's size: ` : '';
  return `${share}${vars.map((k) => `${k} ${n(ran[k])} (the article's ${n(article[k])})`).join(', ')}${passes.length ? `; ${passes[0]}` : ''}`;
}

/**
 * What differs from the article in what a chart draws, one short phrase each: the size, the
 * writes' acknowledgement, sizes a server estimated, what the spec's drawOnly left out, values a
 * log axis cannot draw, and a chart with nothing measured in it.
 */
function differences({ spec, drawn: chart, names, sizes, config }) {
  const out = [];
  const measured = chart.servers;
  // a phrase that holds for some of the chart's servers only is said with their names
  const drawnServers = [...measured].filter(([, sel]) => sel.selected.length).map(([server]) => server);
  const said = new Map(); // a phrase's text -> { phrase, servers it holds for }
  const say = (server, phrase) => {
    const p = typeof phrase === 'string' ? { text: phrase } : phrase;
    const entry = said.get(p.text) || { phrase: p, servers: [] };
    entry.servers.push(server);
    said.set(p.text, entry);
  };
  const anyMeasured = config.data.datasets.some((d) => d.source === 'measured');
  if (!anyMeasured && measured.size) out.push('nothing in this chart was measured: it draws the article\'s own figures');
  const article = sizes?.article;
  if (anyMeasured && article) {
    const bySize = new Map();
    for (const server of measured.keys()) {
      const ran = sizes.byServer?.get(server);
      const text = ran && sizeDifference(ran, article, spec.sizeVariables);
      if (text) bySize.set(text, [...(bySize.get(text) || []), names.get(server)]);
    }
    // servers that record no sizes of their own (the SQL stand-in) ran at the others'
    for (const [text, who] of bySize) out.push(bySize.size > 1 ? `${who.join(', ')}: ${text}` : text);
  }
  for (const [server, { selected: drawn, left: leftOut }] of measured) {
    // writes acknowledged where the article's were not (or the other way)
    const articleWrites = spec.articleWrites || [...new Set(chart.article.selected.filter((r) => r.writeConcern).map((r) => r.writeConcern))][0];
    const writes = [...new Set(drawn.map((r) => r.writeConcern).filter(Boolean))];
    if (articleWrites && writes.length && writes.some((w) => w !== articleWrites)) {
      const refused = drawn.find((r) => r.unacknowledged?.outcome === 'refused');
      say(server, `${writes.join(', ')} writes where the article's were ${articleWrites}${refused ? ', because the scripts\' probe refused w:0 on this server (its notes say why)' : ''}`);
    }
    if (ESTIMATED_FIELDS.includes(spec.y) && drawn.some((r) => Number.isFinite(r[spec.y]) && r.sizesEstimated === true)) {
      // said on the chart too: a curve of estimates must not be read as the data growing or shrinking
      say(server, { onChart: true, text: `${spec.y} is the server's estimate (DocumentDB's, from PostgreSQL's statistics), which jumps when PostgreSQL re-analyzes the table` });
    }
    (spec.drawOnly || []).forEach((rule, i) => {
      const left = leftOut[i];
      if (!left.length) return;
      const reason = rule.reason && valueAt(left[0], rule.reason);
      say(server, `${rule.else}${reason ? ` (${reason})` : ''}`);
    });
  }
  for (const { phrase, servers } of said.values()) {
    const all = drawnServers.every((s) => servers.includes(s));
    out.push(all ? phrase : { ...phrase, text: `${servers.map((s) => names.get(s)).join(', ')}: ${phrase.text}` });
  }
  return out.map((d) => (typeof d === 'string' ? { text: d } : d));
}

/** How to read the chart, in one sentence: what its values are and why, and its scale. */
function readingSentence(spec, drawn) {
  const parts = [];
  if (drawn.normalise) parts.push(`Values ${drawn.normalise.says || 'normalised'}, because the run's sizes are not the article's`);
  if (drawn.log) {
    const zeros = drawn.dropped ? ` (${plural(drawn.dropped, 'value')} of zero left out: a log scale cannot draw zero)` : '';
    parts.push(`${parts.length ? 'on' : 'On'} a log scale, as they span ${Math.round(drawn.span).toLocaleString('en-US')}×${zeros}`);
  }
  return parts.length ? `${parts.join(', ')}.` : null;
}

/**
 * Every chart of a scenario as data: { id, file, title, config, caption, rules, differs, scale,
 * normalised }. Nothing is rendered: renderChart draws a chart's config into PNG bytes.
 *
 * @param model         the scenario's part of the run model (analysis/run-model.js: its descriptor,
 *                      published data, measured records, the sizes each server ran at, whether at
 *                      the article's, and the records each chart draws), or the article's alone
 * @param serverRecords the run's server records (results.jsonl `server` lines), for the legends
 */
function scenarioCharts(model, serverRecords = []) {
  const { scenario, published, measured } = model;
  const ranAt = new Map(model.ran.map((x) => [x.server, x.sizes]));
  const byServer = new Map([...measured.keys()].map((server) => {
    const ran = ranAt.get(server);
    return [server, ran ? { ...ran, ...(Number.isFinite(model.passes) ? { passes: model.passes } : {}) } : null];
  }));
  // the article's sizes in the scenario's variables (published.json may name its own as well)
  const sizes = { article: { ...(published.sizes || {}), ...scenario.sizes.article }, byServer };
  const sameScale = !measured.size || model.atArticleSize;
  const names = serverLabels(measured, serverRecords);
  const findings = published.findings || [];
  const charts = [];
  for (const drawn of model.charts) {
    const { spec } = drawn;
    // a chart of what only some servers measure (server-side time) is drawn where one did
    if (spec.optional && ![...measured.values()].flat().some((r) => Number.isFinite(r[spec.y]))) continue;
    const config = chartConfig({ spec, drawn, groups: spec.groups || scenario.collections, sameScale, serverRecords, sizes });
    if (!config.data.datasets.length) continue; // nothing measured and nothing published to draw
    const rules = (spec.findings || []).map((id) => findings.find((f) => f.id === id)).filter(Boolean)
      .map((f) => ({ id: f.id, claim: f.claim, rule: ruleSentence(f) })).filter((r) => r.rule);
    const reading = readingSentence(spec, config.drawn);
    const differs = differences({ spec, drawn, names, sizes: measured.size ? sizes : null, config });
    const onChart = differs.filter((d) => d.onChart).map((d) => d.text);
    if (onChart.length) config.options.plugins.subtitle = { display: true, text: [config.options.plugins.subtitle.text, ...onChart].filter(Boolean) };
    charts.push({
      id: spec.id,
      file: `${scenario.name}-${spec.id}.png`,
      title: spec.title,
      config,
      caption: [...rules.map((r) => `${sentenceStart(r.claim)}: ${r.rule}`), reading].filter(Boolean).join(' '),
      rules,
      differs: differs.map((d) => d.text),
      scale: config.drawn.log ? 'log' : 'linear',
      normalised: config.drawn.normalise ? config.drawn.normalise.says || 'normalised' : null,
    });
  }
  return charts;
}

/** A chart's caption as markdown lines: the rule and how to read it, then what differs. */
function captionMarkdown(chart) {
  const lines = [];
  if (chart.caption) lines.push(`_${chart.caption}_`);
  // what differs names servers and quotes their records (a refusal's reason): text, not markdown
  if (chart.differs.length) lines.push(`_Differs from the article: ${chart.differs.map(markdownText).join('; ')}._`);
  return lines.join('\n');
}

/** Diagonal stripes in a colour, for the article's bars. */
function hatchPattern(colour) {
  const { createCanvas } = require('canvas');
  const size = 10;
  const tile = createCanvas(size, size);
  const ctx = tile.getContext('2d');
  ctx.fillStyle = 'white';
  ctx.fillRect(0, 0, size, size);
  ctx.strokeStyle = colour;
  ctx.lineWidth = 2;
  ctx.beginPath();
  ctx.moveTo(0, size); ctx.lineTo(size, 0);
  ctx.moveTo(-size / 2, size / 2); ctx.lineTo(size / 2, -size / 2);
  ctx.moveTo(size / 2, size * 1.5); ctx.lineTo(size * 1.5, size / 2);
  ctx.stroke();
  return tile.getContext('2d').createPattern(tile, 'repeat');
}

let renderers = null;
/** PNG bytes of a chart config; one canvas renderer per size is kept and reused. */
async function renderChart(config, { width = WIDTH, height = HEIGHT } = {}) {
  const { ChartJSNodeCanvas } = require('chartjs-node-canvas');
  renderers = renderers || new Map();
  const key = `${width}x${height}`;
  if (!renderers.has(key)) renderers.set(key, new ChartJSNodeCanvas({ width, height, backgroundColour: 'white' }));
  const datasets = config.data.datasets.map((d) => (d.hatch ? { ...d, backgroundColor: hatchPattern(d.hatch) } : d));
  const { drawn, ...chart } = config;
  return renderers.get(key).renderToBuffer({ ...chart, data: { ...config.data, datasets } }, 'image/png');
}

module.exports = {
  lineChartConfig, barChartConfig, renderChart, scenarioCharts, captionMarkdown,
  WIDTH, HEIGHT, LOG_SPAN,
};
