'use strict';
// What a reader of a run checks only sometimes, for the appendix of summary.md and report.html:
// the run's parameters, servers and machine, the calibration of the shells, which client path
// took the calls, the sizes and times, every rule and every verdict with its interval.
const { sizesSection, runSizeText } = require('./sizes');
const { toMarkdown } = require('./tables');
const { formatValue, formatBytes } = require('./format');
const { markdownText } = require('./escape');
const { verdictsMarkdown } = require('./verdicts-markdown');
const { ruleText } = require('../analysis/rule-words');

// text from results.jsonl (a server's words, a script's output, names), placed in markdown as text
const md = markdownText;

function describeRun(run, servers) {
  const m = run.machine || {};
  const lines = [
    `Started ${md(run.startedAt)}; ${runSizeText(run.params)}; seed ${run.params.seed === undefined || run.params.seed === null ? 'none (Math.random, as the articles)' : md(run.params.seed)}.`,
    `Kit ${md(run.kit?.version)} (commit ${md(run.kit?.commit ?? 'unknown')}), Node ${md(run.node)}, driver ${md(run.driver)}, mongosh ${md(run.mongosh)}. Timings taken in **${md(shellName(run.params.shell || run.shell))}**${(run.params.shell || run.shell) === 'kit' ? ` (the unchanged scripts with mongosh's semantics${{ on: ', the single-document writes and reads on its lean path', off: ', its lean path off: every call through the driver' }[run.params.lean] ?? ''}; \`--shell mongosh\` runs them in mongosh)` : ''}.`,
    `Machine: ${md(m.cores)} × ${md(m.cpu)}, ${formatBytes(m.memoryBytes)} memory, ${md(m.platform)}${m.glibc ? `, glibc ${md(m.glibc)}` : ''}${m.transparentHugePages?.enabled ? `; transparent huge pages ${md(m.transparentHugePages.enabled)} (defrag ${md(m.transparentHugePages.defrag ?? '–')})` : ''}.`,
    `Parameters: scenarios ${md(run.params.scenarios.join(', '))}; workers ${md(run.params.workers ?? '–')}; ${(run.params.repeat || 1) > 1 ? `each scenario run ${md(run.params.repeat)} times per server${run.params.warmup ? ' after a warm-up run that is not counted' : ''}, tables showing the median [min–max, coefficient of variation] and charts the min–max band` : 'one run per scenario and server'}; overrides ${md(Object.entries(run.params.overrides || {}).map(([k, v]) => `${k}=${v}`).join(' ')) || 'none'}; keep data ${run.params.keepData ? 'yes' : 'no'}.`,
    '',
    '| server | what | version | storage | started by the kit | round trip |',
    '|---|---|---|---|---|---|',
    ...servers.map((s) => `| ${md(s.server)} | ${md(s.description)} | ${md(`${s.product ?? ''} ${s.version ?? ''}`)} | ${md(s.engine ?? '–')} | ${s.startedByKit ? 'yes' : 'no'} | ${Number.isFinite(s.roundTripMs) ? `${formatValue(s.roundTripMs)} ms` : '–'} |`),
  ];
  // the topology, and what a write that names no w gets there (w:majority on a replica set)
  const deployed = servers.filter((s) => s.topology && s.product === 'MongoDB').map((s) => `- ${md(s.server)}: ${deploymentText(s)}`);
  if (deployed.length) lines.push('', ...deployed);
  // what a server warned of at start-up (FerretDB 2: a DocumentDB other than the one it was built for)
  const warned = servers.flatMap((s) => [].concat(s.warnings || []).map((w) => `- ${md(s.server)} warned at start-up: ${md(w)}`));
  if (warned.length) lines.push('', ...warned);
  return lines.join('\n');
}

/** A read preference in words: its mode, its tags, its staleness bound. */
function readPreferenceText(rp) {
  const tags = (rp.tags || []).map((t) => `{${Object.entries(t).map(([k, v]) => `${k}: ${v}`).join(', ')}}`);
  return [rp.mode, tags.length ? `tags ${tags.join(' then ')}` : null, rp.maxStalenessSeconds ? `at most ${rp.maxStalenessSeconds} s stale` : null]
    .filter(Boolean).map(markdownText).join(', ');
}

/**
 * A MongoDB server's deployment in words, for the run's description: its topology; the default
 * write and read concerns, beside the write concern every timed write names; whether the
 * acknowledged writes were retryable; the read preference every read took; on a mongos, where
 * the collections live and the hop inside the cluster; the allocator setting. (The round trip is
 * in the servers' table.)
 */
function deploymentText(s) {
  const parts = [markdownText(s.deployment.words)];
  const wc = s.defaultWriteConcern;
  if (wc) {
    const names = `a write that names no w gets w:${markdownText(wc.w)}${wc.source ? ` (${markdownText(wc.source)} default)` : ''}`;
    // the scripts name w:0 or w:1 on every write they time since the records name topologyText
    // too; before, trade-candles' loads and many-keys' inserts named none and took this default
    parts.push(s.topologyText
      ? `${names}; every write the scripts time names its own w:0 or w:1, as the article's client did (each record's writeConcern), so the default reaches only their untimed writes`
      : `${names}, and so did the writes of this run's scripts that named none (trade-candles' loads, many-keys' inserts), whatever their records' writeConcern says`);
  }
  // on one server there is nothing to retry elsewhere and no other member to read from
  const replicated = s.deployment.topology !== 'standalone';
  if (replicated && s.defaultReadConcern?.level) parts.push(`a read that names no read concern reads ${markdownText(s.defaultReadConcern.level)}`);
  if (replicated && typeof s.retryableWrites === 'boolean') {
    parts.push(s.retryableWrites
      ? 'retryable writes on (the URI\'s retryWrites): the writes the scripts time against an unacknowledged side run on connections without them, as the articles\' clients had none; the other acknowledged writes (loads, many-keys\' inserts) carry a transaction number on both sides alike (each record\'s retryableWrites)'
      : 'no retryable writes');
  }
  if (s.readPreference?.mode && (replicated || s.readPreference.mode !== 'primary')) {
    parts.push(`every read with read preference ${readPreferenceText(s.readPreference)} (${markdownText(s.readPreference.source ?? 'the URI')}): the timed reads, the kit's sizes and counts, and the figures read beside the reads; the figures of the writes are the primary's${s.readPreference.mode === 'primary' ? '' : ', and where the reads go elsewhere the server\'s own time on the written collections is not read'}`);
  }
  if (s.deployment.throughMongos) {
    parts.push('the kit shards none of its collections, as the articles had none: each lives whole on its database\'s primary shard, so every figure is that one shard\'s, through mongos');
    parts.push(Number.isFinite(s.hopMs)
      ? `every operation through mongos waits for the hop from mongos to the shard, ${formatValue(s.hopMs)} ms, w:0 writes too (w:1 from mongos to the shards), which the round trip to mongos does not hold`
      : 'the hop from mongos to the shard, which every operation through mongos waits for (w:0 writes too), was not measured');
  }
  if (s.allocator?.GLIBC_TUNABLES) parts.push(`started with GLIBC_TUNABLES=${markdownText(s.allocator.GLIBC_TUNABLES)}`);
  return parts.join('; ');
}

/** What each shell adds per operation on each server, so the server's time can be told from the shell's. */
function calibrationTable(calibrations, run) {
  if (!calibrations.length) return '';
  const shells = [...new Set(calibrations.flatMap((c) => c.shells || []))];
  const compiled = calibrations.some((c) => (c.anchors || []).includes('compiled'));
  const first = calibrations[0];
  const intro = `The same operations timed as the scripts time them (a clock read around each call), by a plain loop on the Node driver${compiled ? ', by a compiled client (the same loop in C on libmongoc, as the articles\' clients were compiled; built by `npm run bench`)' : ''} and in ${shells.map((s) => (s === 'kit' ? 'the kit\'s own shell' : md(s))).join(' and in ')}, ${md(first.ops)} of each, ${md(first.rounds)} interleaved rounds, on each server before its scenarios. This run's timings were taken in **${md(shellName(run.params.shell || first.shell))}**${run.params.lean === 'off' ? ' with its lean path off (`--lean off`: every call through the driver)' : ''}. A ratio near 1 means the times below are the server's; above 1, part of each operation is the shell's.`;
  // wall time only: a few hundred operations in a fresh process are mostly its JIT's CPU time
  // (results.jsonl keeps the CPU figures; npm run bench measures them at length)
  const header = [
    'server', 'operation', ...(compiled ? ['compiled ms/op'] : []), 'driver ms/op',
    ...shells.flatMap((s) => [`${shellName(s)} ms/op`, `${shellName(s)}/driver`, ...(compiled ? [`${shellName(s)}/compiled`] : [])]),
  ];
  const rows = calibrations.flatMap((c) => Object.entries(c.perOp).map(([type, v]) => {
    const compiledMs = v.anchorMs?.compiled;
    return [
      c.server, `${type} by _id`, ...(compiled ? [compiledMs === undefined ? '–' : compiledMs.toFixed(3)] : []), v.driverMs.toFixed(3),
      ...shells.flatMap((s) => (v.shellMs?.[s] === undefined ? ['–', '–', ...(compiled ? ['–'] : [])] : [
        v.shellMs[s].toFixed(3), `×${v.ratio[s].toFixed(2)}`,
        ...(compiled ? [compiledMs === undefined ? '–' : `×${(v.shellMs[s] / compiledMs).toFixed(2)}`] : []),
      ])),
    ];
  }));
  return [intro, toMarkdown({ header, rows })].join('\n\n');
}

/** Calls by method and path, as `insertOne 2,003; find 3 (a cursor)`. */
function callsText(counts, why = {}) {
  return Object.entries(counts).map(([method, n]) => {
    const reasons = Object.keys(why[method] || {});
    return `${method} ${formatValue(n, 'int')}${reasons.length ? ` (${reasons.join('; ')})` : ''}`;
  }).join(', ') || '–';
}

/**
 * Which client path took each step's calls in the kit's shell: its lean path (the
 * single-document writes and reads on a borrowed connection) or the driver, with why; the
 * passes of a step summed.
 */
function callPathTable(steps, run) {
  const withCalls = steps.filter((s) => s.calls);
  if (!withCalls.length) return '';
  const groups = new Map();
  for (const step of withCalls) {
    const key = `${step.server}|${step.scenario}|${step.step}`;
    const group = groups.get(key) ?? { step, paths: new Set(), lean: {}, driver: {}, why: {} };
    group.paths.add(step.calls.path);
    for (const side of ['lean', 'driver']) {
      for (const [m, n] of Object.entries(step.calls[side])) group[side][m] = (group[side][m] ?? 0) + n;
    }
    for (const [m, reasons] of Object.entries(step.calls.why)) Object.assign((group.why[m] ??= {}), reasons);
    groups.set(key, group);
  }
  const header = ['server', 'scenario', 'step', 'the single-document calls took', 'lean path calls', 'driver calls (why)'];
  const rows = [...groups.values()].map((g) => [
    g.step.server, g.step.scenario, g.step.step, [...g.paths].join(', '), callsText(g.lean), callsText(g.driver, g.why),
  ]);
  const intro = `Which client path took the scripts' calls in the kit's shell (lean: ${run.params.lean === 'off' ? 'off, `--lean off`' : 'on'}): its lean path sends the single-document writes and reads (insertOne, updateOne, replaceOne, deleteOne, findOne and their kin) on a connection borrowed from the driver's pool with the driver's own command documents; cursors, bulk writes and anything the lean path does not cover go through the driver, with the reason given.`;
  return [intro, toMarkdown({ header, rows })].join('\n\n');
}

function shellName(shell) {
  return shell === 'kit' ? 'kit shell' : shell || 'mongosh';
}

/**
 * What a reader checks only sometimes, for the appendix: [{ title, markdown, open?, page? (the
 * page's alone), summary? (summary.md's alone) }].
 */
function appendixItems(runModel) {
  const { run, servers, calibrations, steps, end, problems } = runModel.data;
  const items = [{ title: 'The run: parameters, servers, machine', markdown: describeRun(run, servers) }];
  const calibration = calibrationTable(calibrations, run);
  if (calibration) {
    const { ops, rounds } = calibrations[0];
    const caveat = `A caveat first: ${ops} operations × ${rounds} rounds in a fresh process are mostly warm-up (the JIT, the pool's first connections), so a ratio here may read below 1 or far above it; it is a rough guide to what the shell adds, not its cost (\`npm run bench\` measures that at length).`;
    items.push({ title: 'Calibration: what the shell adds', markdown: `${caveat}\n\n${calibration}` });
  }
  const callPaths = callPathTable(steps, run);
  if (callPaths) items.push({ title: 'Client path: which calls took the lean path', markdown: callPaths });
  const sizes = sizesSection(runModel.data, [...runModel.scenarioModels.values()].flatMap((sm) => sm.sizeRows));
  if (sizes) items.push({ title: 'Sizes and time, and the models that chose them', markdown: sizes });
  const { findingOf } = runModel;
  const ruled = [...new Map(runModel.verdicts.map((v) => [`${v.scenario}|${v.finding}`, v])).values()].map((v) => ({ v, f: findingOf(v) })).filter(({ f }) => f);
  // what is compared and on which clock (published.json), then where each status begins, from the thresholds
  const rules = ruled.map(({ v, f }) => { const words = ruleText(f); return `- ${v.scenario} · ${f.claim}: ${f.decidedBy}${words ? ` On the scale: ${words}.` : ''}`; }).join('\n');
  if (rules) items.push({ title: 'Every rule', markdown: rules, page: true });
  // summary.md keeps every verdict with its figures as the analysis made them (verdicts.json holds
  // the same as data), for whoever checks a verdict against the records
  const recorded = verdictsMarkdown(runModel.verdicts, findingOf);
  if (recorded) items.push({ title: 'Every verdict, with its interval', markdown: `${recorded}\n\nHow each is decided:\n${rules}`, summary: true });
  if (!end) items.unshift({ title: 'This run did not finish', markdown: 'What the page shows is what it recorded before it stopped.', open: true });
  else if (end.status === 'interrupted') items.unshift({ title: `This run was interrupted (${end.signal})`, markdown: 'What the page shows is what it recorded before.', open: true });
  if (problems.length) items.push({ title: 'Problems reading results.jsonl', open: true, markdown: problems.map((p) => `- ${md(p)}`).join('\n') });
  return items;
}

module.exports = { appendixItems };
