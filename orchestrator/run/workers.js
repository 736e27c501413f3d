'use strict';
// A parallel step's shells each print their own lines; lines of one key are combined into one
// measurement: ms spans the first start to the last end (the Date clock, the one clock separate
// processes share), appliedMs the first start to the last shell's applied instant where every
// shell printed one (appliedAt: its barrier returned, so the server had applied its writes),
// counts are summed, and whether the shells truly overlapped, and how far apart they began, is
// recorded. A line that names no span (a step's total over its paired blocks, which the shells
// combined themselves) keeps its times.

function overlaps(spans) {
  const latestStart = Math.max(...spans.map(([s]) => s));
  const earliestEnd = Math.min(...spans.map(([, e]) => e));
  return latestStart < earliestEnd;
}

function combineWorkerLines(lines, keys) {
  const groups = new Map();
  for (const line of lines) {
    const key = JSON.stringify(keys.map((k) => line[k]));
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push(line);
  }
  return [...groups.values()].map((group) => {
    const spans = group.map((l) => [l.startedAt, l.endedAt]);
    const sum = (field) => (group.every((l) => Number.isInteger(l[field])) ? group.reduce((n, l) => n + l[field], 0) : undefined);
    const { worker, startedAt, endedAt, appliedAt, hrMs, ...first } = group[0];
    // a line with no span of its own (the total of a step's paired blocks) carries times its
    // shells already combined and summed, the same in each: they stand, and its counts add up
    if (!group.every((l) => Number.isFinite(l.startedAt))) {
      return { ...first, workers: group.length, inserted: sum('inserted'), removed: sum('removed') };
    }
    const firstStart = Math.min(...spans.map(([s]) => s));
    const applied = group.every((l) => Number.isFinite(l.appliedAt)) ? Math.max(...group.map((l) => l.appliedAt)) - firstStart : undefined;
    return {
      ...first,
      workers: group.length,
      ms: Math.max(...spans.map(([, e]) => e)) - firstStart,
      ...(applied === undefined ? {} : { appliedMs: applied }),
      inserted: sum('inserted'),
      removed: sum('removed'),
      workerSpans: spans,
      workersOverlapped: group.length > 1 ? overlaps(spans) : null,
      // how far apart the shells began: the part of the span that is their meeting's, not the work's
      startSkewMs: Math.max(...spans.map(([s]) => s)) - firstStart,
    };
  });
}

module.exports = { combineWorkerLines, overlaps };
