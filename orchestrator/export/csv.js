'use strict';
// results.csv: every measured number of a run (or of several side by side) in long format, one
// row per figure, for pandas, R or a spreadsheet (hyperfine's --export-csv, YCSB's
// per-measurement lines). The rows are the analysis's (analysis/figure-rows.js); this exporter
// only writes them as CSV.
const { stringify } = require('csv-stringify/sync');
const { COLUMNS, rowsOf } = require('../analysis/figure-rows');

/** results.csv of the runs of a page: [{ label, data (the run as read) }]. */
function render({ runs, scenarios }) {
  return stringify(runs.flatMap((run) => rowsOf(run, scenarios)), { header: true, columns: COLUMNS });
}

module.exports = { render };
