'use strict';
// report.html: the run's summary.md as one page that opens from the file system with no server
// and no network: every chart is embedded as a data: URI, the style is inline.
const fs = require('node:fs');
const path = require('node:path');
const { writeFileAtomic } = require('../fs-atomic');
const { marked } = require('marked');

const STYLE = `
body { font: 15px/1.45 system-ui, -apple-system, "DejaVu Sans", sans-serif; margin: 2em auto; max-width: 1180px; padding: 0 1em; color: #222; }
h1 { font-size: 1.7em; } h2 { border-bottom: 1px solid #ccc; padding-bottom: .2em; margin-top: 2em; }
table { border-collapse: collapse; margin: .8em 0; font-size: 13px; display: block; overflow-x: auto; }
th, td { border: 1px solid #ddd; padding: 3px 7px; } th { background: #f3f3f3; }
tr:nth-child(even) td { background: #fafafa; }
img { max-width: 100%; border: 1px solid #eee; margin: .6em 0; }
strong { color: #111; } code { background: #f4f4f4; padding: 0 3px; }
`;

function escapeHtml(text) {
  return text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' }[c]));
}

/** Writes report.html in runDir from its summary.md and the PNGs beside it. */
function writeHtmlReport(runDir, markdown, title) {
  const html = marked.parse(markdown).replace(/<img src="([^":]+\.png)"/g, (whole, file) => {
    const png = path.join(runDir, file);
    if (!fs.existsSync(png)) return whole;
    return `<img src="data:image/png;base64,${fs.readFileSync(png).toString('base64')}"`;
  });
  const page = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
${html}
</body>
</html>
`;
  writeFileAtomic(path.join(runDir, 'report.html'), page);
  return 'report.html';
}

module.exports = { writeHtmlReport };
