'use strict';
// verdicts.json: every verdict of a run as data, one object per finding × server, for whoever
// takes the results elsewhere (a notebook, a spreadsheet, another page). Each object is the
// Verdict's own record (analysis/verdict.js toJSON, held to orchestrator/schemas/
// verdict.schema.json); docs/outputs.md gives its columns. With several runs side by side, each
// object names its run first.

/** One verdict as verdicts.json holds it: its record, its run's name first where several runs stand side by side. */
const verdictRecord = (v, run = null) => (run ? { run, ...v.toJSON() } : v.toJSON());

/** verdicts.json's text for one or more analysed runs: [{ label, verdicts }]. */
function verdictsJson(runs) {
  const many = runs.length > 1;
  const all = runs.flatMap((r) => r.verdicts.map((v) => verdictRecord(v, many ? r.label : null)));
  return `${JSON.stringify(all, null, 2)}\n`;
}

/** The exporters' shape (report/exporters.js): the verdicts of a page's run models, as verdicts.json's text. */
function render({ runs }) {
  return verdictsJson(runs);
}

module.exports = { render, verdictsJson, verdictRecord };
