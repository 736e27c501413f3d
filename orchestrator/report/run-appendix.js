'use strict';
// What a reader of a run checks only sometimes, for the appendix of summary.md and report.html:
// the run's parameters, servers and machine, the calibration of the shells, which client path
// took the calls, the sizes and times, every rule and every verdict with its interval.
// Each is held as blocks (blocks.js): summary.md and report.html each write them in their own form.
const { sizesSection, runSizeParts } = require('./sizes');
const { formatValue, formatBytes } = require('./format');
const { verdictsTable } = require('./verdicts-table');
const { ruleText } = require('../analysis/rule-words');

/**
 * The acknowledged writes of the run's scenarios that no finding holds against unacknowledged
 * ones, in words, as each scenario.json names them (steps[].acknowledgedWrites): "a' loads, b'
 * inserts", or '' where none of its scenarios has any.
 */
function acknowledgedWritesText(scenarios) {
  return scenarios.flatMap((s) => s.steps.filter((step) => step.acknowledgedWrites).map((step) => `${s.name}${s.name.endsWith('s') ? '\'' : '\'s'} ${step.acknowledgedWrites}`)).join(', ');
}

/**
 * The run's parameters, servers and machine, as blocks (blocks.js). acknowledged: the
 * acknowledged writes of its scenarios, in words (acknowledgedWritesText).
 */
function describeRun(run, servers, acknowledged = '') {
  const m = run.machine || {};
  const shell = run.params.shell || run.shell;
  const said = (text) => ({ say: text });
  const lines = [
    [said('Started '), run.startedAt, said('; '), ...runSizeParts(run.params), said('; seed '), ...(run.params.seed === undefined || run.params.seed === null ? [said('none (Math.random, as the articles)')] : [String(run.params.seed)]), said('.')],
    [
      said('Kit '), run.kit?.version, said(' (commit '), run.kit?.commit ?? 'unknown', said('), Node '), run.node, said(', driver '), run.driver, said(', mongosh '), run.mongosh,
      said('. Timings taken in '), { strong: [shellName(shell)] },
      ...(shell === 'kit' ? [said(` (the unchanged scripts with mongosh's semantics${{ on: ', the single-document writes and reads on its lean path', off: ', its lean path off: every call through the driver' }[run.params.lean] ?? ''}; `), { code: '--shell mongosh' }, said(' runs them in mongosh)')] : []),
      said('.'),
    ],
    [
      said('Machine: '), String(m.cores ?? ''), said(' × '), m.cpu, said(`, ${formatBytes(m.memoryBytes)} memory, `), m.platform,
      ...(m.glibc ? [said(', glibc '), m.glibc] : []),
      ...(m.transparentHugePages?.enabled ? [said('; transparent huge pages '), m.transparentHugePages.enabled, said(' (defrag '), m.transparentHugePages.defrag ?? '–', said(')')] : []),
      said('.'),
    ],
    [
      said('Parameters: scenarios '), run.params.scenarios.join(', '), said('; workers '), String(run.params.workers ?? '–'), said('; '),
      ...((run.params.repeat || 1) > 1
        ? [said('each scenario run '), String(run.params.repeat), said(` times per server${run.params.warmup ? ' after a warm-up run that is not counted' : ''}, tables showing the median [min–max, coefficient of variation] and charts the min–max band`)]
        : [said('one run per scenario and server')]),
      said('; overrides '), Object.entries(run.params.overrides || {}).map(([k, v]) => `${k}=${v}`).join(' ') || said('none'), said(`; keep data ${run.params.keepData ? 'yes' : 'no'}.`),
    ],
  ];
  const table = {
    header: ['server', 'what', 'version', 'storage', 'started by the kit', 'round trip'],
    rows: servers.map((s) => [s.server, s.description, `${s.product ?? ''} ${s.version ?? ''}`, s.engine ?? '–', s.startedByKit ? 'yes' : 'no', Number.isFinite(s.roundTripMs) ? `${formatValue(s.roundTripMs)} ms` : '–']),
  };
  const blocks = [{ lines }, { table, align: table.header.map(() => 'left') }];
  // the topology, and what a write that names no w gets there (w:majority on a replica set)
  const deployed = servers.filter((s) => s.topology && s.product === 'MongoDB').map((s) => [s.server, said(': '), ...deploymentParts(s, acknowledged)]);
  if (deployed.length) blocks.push({ list: deployed });
  // another product (FerretDB) of the user's, whose URI names a read or write concern: said too
  const asked = servers.filter((s) => s.product !== 'MongoDB' && uriConcernParts(s).length).map((s) => [s.server, said(': '), ...uriConcernParts(s)]);
  if (asked.length) blocks.push({ list: asked });
  // what a server warned of at start-up (FerretDB 2: a DocumentDB other than the one it was built for)
  const warned = servers.flatMap((s) => [].concat(s.warnings || []).map((w) => [s.server, said(' warned at start-up: '), w]));
  if (warned.length) blocks.push({ list: warned });
  return blocks;
}

/** A read preference in words: its mode, its tags, its staleness bound. */
function readPreferenceText(rp) {
  const tags = (rp.tags || []).map((t) => `{${Object.entries(t).map(([k, v]) => `${k}: ${v}`).join(', ')}}`);
  return [rp.mode, tags.length ? `tags ${tags.join(' then ')}` : null, rp.maxStalenessSeconds ? `at most ${rp.maxStalenessSeconds} s stale` : null].filter(Boolean).join(', ');
}

/**
 * A MongoDB server's deployment in words, for the run's description: its topology; the default
 * write and read concerns, beside the write concern every timed write names; whether the
 * acknowledged writes were retryable; the read preference every read took; on a mongos, where
 * the collections live and the hop inside the cluster; the allocator setting. (The round trip is
 * in the servers' table.) Inline parts (blocks.js): the server's own words are its record's.
 * acknowledged: the run's acknowledged writes in words (acknowledgedWritesText), or ''.
 */
function deploymentParts(s, acknowledged = '') {
  const said = (text) => ({ say: text });
  const parts = [[s.deployment.words]];
  const wc = s.defaultWriteConcern;
  if (wc && wc.w === null) {
    // getDefaultRWConcern refused (a missing privilege, a shard's member): not known, and said, never guessed
    parts.push([said('the write concern a write that names no w gets is '), wc.source ?? 'unknown', said('; every write the scripts time names its own w:0 or w:1 (each record\'s writeConcern)')]);
  } else if (wc) {
    const names = [said('a write that names no w gets w:'), String(wc.w), ...(wc.source ? [said(' ('), wc.source, said(' default)')] : [])];
    // the scripts name w:0 or w:1 on every write they time since the records name topologyText
    // too; before, the acknowledged writes their scenario.json names named none and took this default
    parts.push([...names, said(s.topologyText
      ? '; every write the scripts time names its own w:0 or w:1, as the article\'s client did (each record\'s writeConcern), so the default reaches only their untimed writes'
      : `, and so did the writes of this run's scripts that named none${acknowledged ? ` (${acknowledged})` : ''}, whatever their records' writeConcern says`)]);
  }
  // on one server there is nothing to retry elsewhere and no other member to read from
  const replicated = s.deployment.topology !== 'standalone';
  if (replicated && s.defaultReadConcern?.level) parts.push([said('a read that names no read concern reads '), s.defaultReadConcern.level]);
  const asked = uriConcernParts(s);
  if (asked.length) parts.push(asked);
  if (replicated && typeof s.retryableWrites === 'boolean') {
    parts.push([said(s.retryableWrites
      ? `retryable writes on (the URI's retryWrites): the writes the scripts time against an unacknowledged side run on connections without them, as the articles' clients had none; the other acknowledged writes${acknowledged ? ` (${acknowledged})` : ''} carry a transaction number on both sides alike (each record's retryableWrites)`
      : 'no retryable writes')]);
  }
  if (s.readPreference?.mode && (replicated || s.readPreference.mode !== 'primary')) {
    parts.push([said('every read with read preference '), readPreferenceText(s.readPreference), said(' ('), s.readPreference.source ?? 'the URI', said(`): the timed reads, the kit's sizes and counts, and the figures read beside the reads; the figures of the writes are the primary's${s.readPreference.mode === 'primary' ? '' : ', and where the reads go elsewhere the server\'s own time on the written collections is not read'}`)]);
  }
  if (s.deployment.throughMongos) {
    parts.push([said('the kit shards none of its collections, as the articles had none: each lives whole on its database\'s primary shard, so every figure is that one shard\'s, through mongos')]);
    parts.push([said(Number.isFinite(s.hopMs)
      ? `every operation through mongos waits for the hop from mongos to the shard, ${formatValue(s.hopMs)} ms, w:0 writes too (w:1 from mongos to the shards), which the round trip to mongos does not hold`
      : 'the hop from mongos to the shard, which every operation through mongos waits for (w:0 writes too), was not measured')]);
    // a mongodb+srv URI: the round trip's mongos need not be the timed connections' (run/round-trip.js)
    if (s.roundTripMongos?.same === false) parts.push([said('the round trip was timed through one mongos: '), s.roundTripMongos.why]);
  }
  if (s.allocator?.GLIBC_TUNABLES) parts.push([said('started with GLIBC_TUNABLES='), s.allocator.GLIBC_TUNABLES]);
  return parts.flatMap((p, i) => (i ? [said('; '), ...p] : p));
}

/**
 * What the URI asks of every operation, and what the timed ones took (servers/deployment.js
 * uriConcerns), as inline parts; none where the URI names no concern.
 */
function uriConcernParts(s) {
  const said = (text) => ({ say: text });
  const uri = s.uriConcerns;
  const named = uri ? [['readConcernLevel', uri.readConcernLevel], ['w', uri.w], ['journal', uri.journal], ['wtimeoutMS', uri.wtimeoutMS]].filter(([, v]) => v !== null && v !== undefined) : [];
  if (!named.length) return [];
  const reads = uri.readConcernLevel ? ': every read the scripts time takes that read concern (none names its own)' : '';
  const writes = [uri.w, uri.journal, uri.wtimeoutMS].some((v) => v !== null && v !== undefined)
    ? `${reads ? ', and' : ':'} every write they time names its own w:0 or w:1 without j, so the URI's w and journal reach only their untimed writes` : '';
  return [said('the URI names '), named.map(([k, v]) => `${k}=${v}`).join(', '), said(`${reads}${writes}`)];
}

/** What each shell adds per operation on each server, so the server's time can be told from the shell's. */
function calibrationTable(calibrations, run) {
  if (!calibrations.length) return [];
  const shells = [...new Set(calibrations.flatMap((c) => c.shells || []))];
  const compiled = calibrations.some((c) => (c.anchors || []).includes('compiled'));
  const first = calibrations[0];
  const said = (text) => ({ say: text });
  const intro = [
    said('The same operations timed as the scripts time them (a clock read around each call), by a plain loop on the Node driver'),
    ...(compiled ? [said(', by a compiled client (the same loop in C on libmongoc, as the articles\' clients were compiled; built by '), { code: 'npm run bench' }, said(')')] : []),
    said(' and in '), ...shells.flatMap((sh, i) => [...(i ? [said(' and in ')] : []), sh === 'kit' ? said('the kit\'s own shell') : sh]),
    said(', '), String(first.ops), said(' of each, '), String(first.rounds), said(' interleaved rounds, on each server before its scenarios. This run\'s timings were taken in '),
    { strong: [shellName(run.params.shell || first.shell)] },
    ...(run.params.lean === 'off' ? [said(' with its lean path off ('), { code: '--lean off' }, said(': every call through the driver)')] : []),
    said('. A ratio near 1 means the times below are the server\'s; above 1, part of each operation is the shell\'s.'),
  ];
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
  return [{ lines: [intro] }, { table: { header, rows } }];
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
  if (!withCalls.length) return [];
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
  const intro = [
    { say: 'Which client path took the scripts\' calls in the kit\'s shell (lean: ' }, ...(run.params.lean === 'off' ? [{ say: 'off, ' }, { code: '--lean off' }] : [{ say: 'on' }]),
    { say: '): its lean path sends the single-document writes and reads (insertOne, updateOne, replaceOne, deleteOne, findOne and their kin) on a connection borrowed from the driver\'s pool with the driver\'s own command documents; cursors, bulk writes and anything the lean path does not cover go through the driver, with the reason given.' },
  ];
  return [{ lines: [intro] }, { table: { header, rows } }];
}

function shellName(shell) {
  return shell === 'kit' ? 'kit shell' : shell || 'mongosh';
}

/**
 * What a reader checks only sometimes, for the appendix: [{ title, blocks (blocks.js), open?,
 * page? (the page's alone), summary? (summary.md's alone) }].
 */
function appendixItems(runModel) {
  const { run, servers, calibrations, steps, end, problems } = runModel.data;
  const said = (text) => ({ say: text });
  const items = [{ title: 'The run: parameters, servers, machine', blocks: describeRun(run, servers, acknowledgedWritesText(runModel.scenarios)) }];
  const calibration = calibrationTable(calibrations, run);
  if (calibration.length) {
    const { ops, rounds } = calibrations[0];
    const caveat = [said(`A caveat first: ${ops} operations × ${rounds} rounds in a fresh process are mostly warm-up (the JIT, the pool's first connections), so a ratio here may read below 1 or far above it; it is a rough guide to what the shell adds, not its cost (`), { code: 'npm run bench' }, said(' measures that at length).')];
    items.push({ title: 'Calibration: what the shell adds', blocks: [{ lines: [caveat] }, ...calibration] });
  }
  const callPaths = callPathTable(steps, run);
  if (callPaths.length) items.push({ title: 'Client path: which calls took the lean path', blocks: callPaths });
  const sizes = sizesSection(runModel.data, [...runModel.scenarioModels.values()].flatMap((sm) => sm.sizeRows));
  if (sizes.length) items.push({ title: 'Sizes and time, and the models that chose them', blocks: sizes });
  const { findingOf } = runModel;
  const ruled = [...new Map(runModel.verdicts.map((v) => [`${v.scenario}|${v.finding}`, v])).values()].map((v) => ({ v, f: findingOf(v) })).filter(({ f }) => f);
  // what is compared and on which clock (published.json), then where each status begins, from the thresholds
  const rules = ruled.map(({ v, f }) => { const words = ruleText(f); return [said(`${v.scenario} · ${f.claim}: ${f.decidedBy}${words ? ` On the scale: ${words}.` : ''}`)]; });
  if (rules.length) items.push({ title: 'Every rule', blocks: [{ list: rules }], page: true });
  // summary.md keeps every verdict with its figures as the analysis made them (verdicts.json holds
  // the same as data), for whoever checks a verdict against the records
  const recorded = verdictsTable(runModel.verdicts, findingOf);
  if (recorded) items.push({ title: 'Every verdict, with its interval', blocks: [recorded, { lead: said('How each is decided:'), list: rules }], summary: true });
  if (!end) items.unshift({ title: 'This run did not finish', blocks: [{ lines: [[said('What the page shows is what it recorded before it stopped.')]] }], open: true });
  else if (end.status === 'interrupted') items.unshift({ title: `This run was interrupted (${end.signal})`, blocks: [{ lines: [[said('What the page shows is what it recorded before.')]] }], open: true });
  if (problems.length) items.push({ title: 'Problems reading results.jsonl', open: true, blocks: [{ list: problems.map((p) => [p]) }] });
  return items;
}

module.exports = { appendixItems };
