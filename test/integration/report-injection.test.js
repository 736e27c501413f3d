'use strict';
// A run folder is data anyone can write, and a server chooses its own version string and
// start-up warnings: nothing in them may become markup. This test plants markup, a script and
// markdown in every server field, a warning, a measurement's text, a step's error, a resume's
// step and a URI server's name, in a kept example's results.jsonl copied to a temp folder;
// renders it with `orchestrate report`; opens report.html in headless Chromium and finds no
// element made from them, no script run, no request, and the text shown as text. summary.md,
// put through marked as any markdown viewer would, makes no element of them either.
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { invokeOrchestrate } = require('../helpers/cli');
const { CHROMIUM_ARGS, VIEWPORT, chromiumPath } = require('../../orchestrator/report/screenshot');
const { chromiumMissing } = require('../../orchestrator/capabilities');
const { resolveConfig } = require('../../orchestrator/config');
const { skip } = require('../helpers/skips');

const EXAMPLE = path.join(__dirname, '..', '..', 'reports', 'examples', 'article-ferretdb2-trade-candles', 'results.jsonl');

/**
 * What is planted in a field: an image whose error runs a script, a script element, a bold
 * element with a class to find it by, and markdown a renderer would turn into a link, an image,
 * emphasis, code and an autolink. No digits, so a version parser keeps it whole.
 */
function planted(where) {
  return `<img src=x class="planted" onerror="window.__pwned=(window.__pwned||[]).concat('${where}')">`
    + `<script>window.__pwned=(window.__pwned||[]).concat('${where}')</script>`
    + `<b class="planted">${where}</b> [plink](http://example.invalid/${where}) ![pimg](http://example.invalid/${where}.png)`
    + ` **pbold** \`pcode\` _pem_ ~~pdel~~ www.example.invalid pwned@example.invalid`;
}

/** The kept example with markup planted in every field a server or a script chooses, and a URI server beside it. */
function plantedRun(dir) {
  const records = fs.readFileSync(EXAMPLE, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
  const out = [];
  const uriName = planted('uri-name');
  for (const r of records) {
    if (r.type === 'run') {
      r.machine.cpu = planted('cpu');
      r.machine.platform = planted('platform');
      r.kit.version = planted('kit');
      r.node = planted('node');
      r.params.servers.push(`${uriName}=mongodb://example.invalid/`);
      out.push(r);
      // a resumed run says after which step it carried on: that step's names come from the file
      out.push({
        type: 'resume', runId: 'resumed', startedAt: r.startedAt, machine: r.machine, node: r.node, kit: r.kit,
        from: { afterStep: { server: planted('resume-server'), scenario: 'trade-candles', step: planted('resume-step'), pass: 1 }, ended: planted('resume-ended') },
      });
      continue;
    }
    if (r.type === 'server') {
      Object.assign(r, {
        description: planted('description'), product: planted('product'), version: planted('version'), engine: planted('engine'),
        backendVersion: planted('backendVersion'), warnings: [planted('warning')], topology: planted('topology'),
        replicaSet: planted('replicaSet'), defaultWriteConcern: { w: planted('w'), source: planted('source') },
      });
      out.push(r);
      // a user's server, named by the user (or by whoever wrote this file)
      out.push({
        type: 'server', server: uriName, spec: `${uriName}=mongodb://example.invalid/`, kind: 'uri', description: planted('uri-description'),
        startedByKit: false, product: 'MongoDB', version: planted('uri-version'), wireVersion: 25, engine: planted('uri-engine'), warnings: [planted('uri-warning')],
        topology: 'replicaSet', topologyText: planted('uri-topologyText'), retryableWrites: true,
        defaultReadConcern: { level: planted('uri-readConcern'), source: planted('uri-readConcern-source') },
        readPreference: { mode: planted('uri-readPreference'), tags: [{ [planted('uri-tag')]: planted('uri-tag-value') }], source: planted('uri-readPreference-source') },
      });
      continue;
    }
    if (r.type === 'measurement' || r.type === 'step') {
      if (r.type === 'measurement') {
        Object.assign(r, { writeConcern: planted('writeConcern'), sizesRead: planted('sizesRead'), memory: planted('memory') });
        if (r.durable) r.durable.reason = planted('durable');
      } else {
        r.otherRuns = [{ runId: planted('otherRun'), pid: 1, out: planted('otherRun-out') }];
        if (r.calls) r.calls.why = { insertMany: { [planted('why')]: 3 } };
      }
      out.push(r);
      out.push({ ...r, server: uriName });
      continue;
    }
    if (r.type === 'end') {
      out.push({ type: 'failure', scenario: 'trade-candles', server: uriName, step: 'read', pass: 1, error: planted('error') });
      out.push({ type: 'failure', server: planted('failure-server'), step: 'start', error: planted('start-error') });
    }
    out.push(r);
  }
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'results.jsonl'), `${out.map((r) => JSON.stringify(r)).join('\n')}\n`);
}

describe('a run folder cannot put markup into its report', function () {
  this.timeout(120000);
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'classics-injection-'));
  const dir = path.join(root, 'planted');

  before(async () => {
    plantedRun(dir);
    const { code, stderr } = await invokeOrchestrate(['report', dir]);
    assert.equal(code, 0, stderr);
  });

  after(() => fs.rmSync(root, { recursive: true, force: true }));

  it('report.html opened in Chromium: no element made from the planted markup, no script run, no request, the text shown as text', async function () {
    const missing = chromiumMissing(resolveConfig());
    if (missing) skip(this, 'no Chromium', missing);
    const { chromium } = require('playwright-core');
    const browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS });
    try {
      const page = await browser.newPage({ viewport: VIEWPORT });
      const requests = [];
      const dialogs = [];
      page.on('request', (r) => { if (!/^(file|data):/.test(r.url())) requests.push(r.url()); });
      page.on('dialog', (d) => { dialogs.push(d.message()); d.dismiss(); });
      await page.goto(`file://${path.join(dir, 'report.html')}`);
      await page.waitForLoadState('load');
      const found = await page.evaluate(() => ({
        pwned: window.__pwned || null,
        planted: document.querySelectorAll('.planted').length,
        scripts: document.querySelectorAll('script').length,
        foreignImages: [...document.querySelectorAll('img')].filter((i) => !i.getAttribute('src').startsWith('data:')).map((i) => i.getAttribute('src')),
        images: [...document.querySelectorAll('img')].map((i) => ({ complete: i.complete, width: i.naturalWidth })),
        links: [...document.querySelectorAll('a[href]')].map((a) => a.getAttribute('href')).filter((h) => !h.startsWith('#')),
        // an element whose whole text is a planted word was made by a markdown renderer from it
        marked: [...document.querySelectorAll('strong, em, code, del, b, i, a')].map((e) => e.textContent.trim()).filter((t) => ['pbold', 'pcode', 'pem', 'pdel', 'plink', 'pimg'].includes(t)),
        text: document.body.textContent,
        csp: document.querySelector('meta[http-equiv="Content-Security-Policy"]')?.getAttribute('content') || null,
      }));
      assert.equal(found.pwned, null, `a planted script ran: ${found.pwned}`);
      assert.deepEqual(dialogs, []);
      assert.equal(found.planted, 0, 'elements made from the planted markup');
      assert.equal(found.scripts, 0, 'script elements on the page');
      assert.deepEqual(found.foreignImages, [], 'images from the planted markup');
      assert.deepEqual(found.links.filter((h) => /example\.invalid/.test(h)), [], 'links from the planted markdown and autolinks');
      assert.deepEqual(found.marked, [], 'emphasis or code made from the planted markdown');
      assert.deepEqual(requests, [], 'the page asks the network for nothing');
      // the text is there, as text: the warning, the step's error and the URI server's name
      for (const where of ['warning', 'error', 'uri-name', 'description', 'cpu']) {
        assert.ok(found.text.includes(`<b class="planted">${where}</b> [plink](http://example.invalid/${where})`), `the planted ${where} is not shown as text`);
      }
      // no script from anywhere, no network: images only as data: URIs, and the charts still show
      assert.match(found.csp || '', /default-src 'none'/);
      assert.ok(found.images.length >= 2 && found.images.every((i) => i.complete && i.width > 0), JSON.stringify(found.images));
    } finally {
      await browser.close();
    }
  });

  it('summary.md, rendered by marked as a markdown viewer would, makes no element of the planted text and keeps it as text', () => {
    const { marked } = require('marked');
    const md = fs.readFileSync(path.join(dir, 'summary.md'), 'utf8');
    const html = marked.parse(md);
    const made = /<img[^>]*src="?x|<script|class="planted"|href="http:\/\/example\.invalid|href="mailto:|<strong>pbold|<code>pcode|<em>pem|<del>pdel|href="http:\/\/www\.example/.exec(html);
    assert.equal(made && html.slice(Math.max(0, made.index - 200), made.index + 200), null, 'an element made from the planted text');
    assert.ok(html.includes('&lt;b class=&quot;planted&quot;&gt;warning&lt;/b&gt;') || html.includes('&lt;b class="planted"&gt;warning&lt;/b&gt;'), 'the warning is shown as text');
  });
});
