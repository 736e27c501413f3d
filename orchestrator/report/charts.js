'use strict';
// Chart configs are plain data (tested as data); rendering turns one into a PNG.
const { matches } = require('../results/records');

const WIDTH = 1000;
const HEIGHT = 560;

// Tableau 10: distinct in colour and in grey, so lines stay apart when printed.
const PALETTE = ['#4e79a7', '#f28e2b', '#59a14f', '#e15759', '#76b7b2', '#edc948', '#b07aa1', '#ff9da7', '#9c755f', '#bab0ac'];
const PUBLISHED_COLOURS = ['#222222', '#777777', '#aaaaaa', '#555555'];
// Groups that measure the same (FerretDB stores both collections alike) would hide one another.
const POINT_STYLES = ['circle', 'triangle', 'rectRot', 'star', 'crossRot'];

function points(records, spec) {
  return records
    .filter((r) => matches(r, spec) && Number.isFinite(r[spec.x]) && Number.isFinite(r[spec.y]))
    .map((r) => ({ x: r[spec.x], y: r[spec.y] }))
    .sort((a, b) => a.x - b.x);
}

/**
 * The min-max range of repeated runs around a measured line, as a shaded band (two datasets, the
 * second filled to the first); none where the records hold no spread.
 */
function spreadBand(records, spec, colour, label) {
  const band = records
    .filter((r) => matches(r, spec) && Number.isFinite(r[spec.x]) && r.spread?.[spec.y])
    .sort((a, b) => a[spec.x] - b[spec.x]);
  if (!band.length) return [];
  const edge = { borderWidth: 0, pointRadius: 0, yAxisID: 'y', borderColor: colour, spreadOf: label };
  return [
    { ...edge, label: `${label} min`, data: band.map((r) => ({ x: r[spec.x], y: r.spread[spec.y].min })), fill: false },
    { ...edge, label: `${label} max`, data: band.map((r) => ({ x: r[spec.x], y: r.spread[spec.y].max })), fill: '-1', backgroundColor: `${colour}40` },
  ];
}

function axisLabel(spec, measured) {
  const label = spec.yLabel || spec.y;
  return measured.size ? `${label}, measured` : label;
}

function baseOptions(spec, subtitle) {
  return {
    animation: false,
    plugins: {
      title: { display: true, text: spec.title, font: { size: 18 } },
      subtitle: { display: Boolean(subtitle), text: subtitle || '' },
      // the bands of repeated runs explain themselves in the subtitle, not in the legend
      legend: { position: 'bottom', labels: { usePointStyle: true, filter: (item, data) => !data.datasets[item.datasetIndex].spreadOf } },
    },
  };
}

/**
 * A line chart in the article's form: one line per group (collection) per server, and the
 * article's published series dashed. When the run's size is not the article's, the published
 * series get their own right-hand axis, labelled so, because their scale is not the run's.
 *
 * @param spec      a descriptor chart: { title, x, y, series, step?, where?, xLabel, yLabel,
 *                  also?: { y, label } a second measured field drawn dotted, yName: the first's name }
 * @param measured  Map server name -> measurement records of this scenario
 * @param published the article's records
 * @param groups    the series values in order (collections)
 * @param sameScale whether the run used the article's sizes
 */
function lineChartConfig({ spec, measured, published = [], groups, sameScale, subtitle }) {
  const datasets = [];
  let colour = 0;
  for (const [server, records] of measured) {
    groups.forEach((group, g) => {
      const data = points(records.filter((r) => r[spec.series] === group), spec);
      if (!data.length) return;
      const c = PALETTE[colour++ % PALETTE.length];
      datasets.push({
        label: `${server} · ${group}${spec.also ? ` · ${spec.yName || spec.y}` : ''}`, data, borderColor: c, backgroundColor: c, borderWidth: 2,
        pointStyle: POINT_STYLES[g % POINT_STYLES.length], pointRadius: 3 + g, yAxisID: 'y',
      });
      datasets.push(...spreadBand(records.filter((r) => r[spec.series] === group), spec, c, `${server} · ${group}`));
      // a second measured field on the same axis, dotted (the client's time beside the server's)
      if (spec.also) {
        const also = points(records.filter((r) => r[spec.series] === group), { ...spec, y: spec.also.y });
        if (also.length) {
          datasets.push({
            label: `${server} · ${group} · ${spec.also.label}`, data: also, borderColor: c, backgroundColor: c, borderWidth: 2,
            borderDash: [2, 3], pointStyle: POINT_STYLES[g % POINT_STYLES.length], pointRadius: 2, yAxisID: 'y',
          });
        }
      }
    });
  }
  const separateAxis = !sameScale && measured.size > 0;
  groups.forEach((group, i) => {
    const data = points(published.filter((r) => r[spec.series] === group), spec);
    if (!data.length) return;
    const c = PUBLISHED_COLOURS[i % PUBLISHED_COLOURS.length];
    datasets.push({
      label: `article · ${group}`, data, borderColor: c, backgroundColor: c, borderWidth: 2,
      borderDash: [8, 5], pointRadius: 2, pointStyle: 'rect', yAxisID: separateAxis ? 'yArticle' : 'y',
    });
  });
  const scales = {
    x: { type: 'linear', title: { display: true, text: spec.xLabel || spec.x }, ticks: { precision: 0 } },
    y: { type: 'linear', position: 'left', beginAtZero: Boolean(spec.beginAtZero), title: { display: true, text: axisLabel(spec, measured) } },
  };
  if (datasets.some((d) => d.yAxisID === 'yArticle')) {
    scales.yArticle = {
      type: 'linear', position: 'right', grid: { drawOnChartArea: false }, beginAtZero: Boolean(spec.beginAtZero),
      title: { display: true, text: `${spec.yLabel || spec.y}, article (dashed, at the article's size)` },
    };
  }
  return { type: 'line', data: { datasets }, options: { ...baseOptions(spec, subtitle), parsing: false, scales } };
}

/**
 * A grouped bar chart: categories along x (spec.category), one bar per server and series value,
 * and the article's bars hatched (`hatch: true`, turned into a canvas pattern at render time).
 * Published bars share the axis only at the article's size; otherwise they get a right axis.
 *
 * @param spec a descriptor chart: { title, category, categories?, series, y, step?, where?, yLabel }
 */
function barChartConfig({ spec, measured, published = [], groups, sameScale, subtitle }) {
  const all = [...[...measured.values()].flat(), ...published].filter((r) => matches(r, spec));
  const categories = spec.categories || [...new Set(all.map((r) => r[spec.category]))];
  const valueAt = (records, group, category) => {
    const r = records.find((x) => matches(x, spec) && x[spec.series] === group && x[spec.category] === category);
    return r && Number.isFinite(r[spec.y]) ? r[spec.y] : null;
  };
  const datasets = [];
  let colour = 0;
  for (const [server, records] of measured) {
    for (const group of groups) {
      const data = categories.map((c) => valueAt(records, group, c));
      if (data.every((v) => v === null)) continue;
      const c = PALETTE[colour++ % PALETTE.length];
      datasets.push({ label: `${server} · ${group}`, data, backgroundColor: c, borderColor: c, borderWidth: 1, yAxisID: 'y' });
    }
  }
  const separateAxis = !sameScale && measured.size > 0;
  groups.forEach((group, i) => {
    const data = categories.map((c) => valueAt(published, group, c));
    if (data.every((v) => v === null)) return;
    const c = PUBLISHED_COLOURS[i % PUBLISHED_COLOURS.length];
    datasets.push({
      label: `article · ${group}`, data, hatch: c, backgroundColor: c, borderColor: c, borderWidth: 2,
      yAxisID: separateAxis ? 'yArticle' : 'y',
    });
  });
  const scales = {
    x: { title: { display: true, text: spec.xLabel || spec.category } },
    y: { beginAtZero: true, position: 'left', title: { display: true, text: axisLabel(spec, measured) } },
  };
  if (datasets.some((d) => d.yAxisID === 'yArticle')) {
    scales.yArticle = {
      beginAtZero: true, position: 'right', grid: { drawOnChartArea: false },
      title: { display: true, text: `${spec.yLabel || spec.y}, article (hatched, at the article's size)` },
    };
  }
  return {
    type: 'bar',
    data: { labels: categories.map((c) => (spec.categoryLabels && spec.categoryLabels[c]) || String(c)), datasets },
    options: { ...baseOptions(spec, subtitle), scales },
  };
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
  return renderers.get(key).renderToBuffer({ ...config, data: { ...config.data, datasets } }, 'image/png');
}

const CHART_BUILDERS = { line: lineChartConfig, bar: barChartConfig };

function chartConfig(args) {
  const build = CHART_BUILDERS[args.spec.type];
  if (!build) throw new Error(`no chart of type ${args.spec.type}`);
  return build(args);
}

module.exports = { chartConfig, lineChartConfig, barChartConfig, renderChart, WIDTH, HEIGHT };
