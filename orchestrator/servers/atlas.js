'use strict';
// Atlas, and the tier it runs on. Atlas is known as mongosh knows it: by an answer to the
// atlasVersion command (mongosh's service provider, getConnectionInfo), or by a host name under
// mongodb.net (mongodb-build-info's isAtlas). The shared tiers run behind a proxy that answers a
// command they do not allow with code 8000 (AtlasError) and "<command> is not allowed or the
// syntax is incorrect" (Atlas's "Unsupported Commands in Atlas": M0 and Flex today, and the
// shared M2 and M5 the same page named before Flex replaced them), where a dedicated cluster (M10
// and larger) gives the command to any user with the privilege and answers others Unauthorized
// (13). That refusal is the only place the server says its tier: it never names M0, Flex or M30,
// so the record names the tier as the probe can know it, shared or dedicated; where the answer is
// neither (a retired Serverless instance, whose limits that page never listed, a network error),
// the record says the tier is not known and one line says so before the scenarios run.
const { ConnectionString } = require('mongodb-connection-string-url');

/** mongodb-build-info's ATLAS_REGEX (the host names Atlas gives its clusters). */
const ATLAS_HOST = /\.mongodb(-dev|-qa|-stage)?\.net$/i;

/** Whether a URI names an Atlas host (its first host, or its mongodb+srv name). */
function isAtlasUri(uri) {
  try {
    const [first = ''] = new ConnectionString(String(uri)).hosts;
    return ATLAS_HOST.test(first.replace(/:\d+$/, ''));
  } catch {
    return false;
  }
}

/**
 * Whether an error is an Atlas tier refusing a command, not a user's want of a privilege. The
 * shared tiers' proxy says "<command> is not allowed or the syntax is incorrect" (older:
 * "CMD_NOT_ALLOWED: <command>", "... not allowed in this atlas tier"); a missing privilege reads
 * "user is not allowed to do action [...] on [...]", also with code 8000. A write past the tiers'
 * 512 MB ("you are over your space quota") is no refusal of a command: it fails its step.
 */
function isTierRefusal(err) {
  if (!err || !(err.code === 8000 || err.codeName === 'AtlasError')) return false;
  const message = String(err.message || err.errmsg || '');
  if (/user is not allowed to do action/i.test(message)) return false;
  return /is not allowed or the syntax is incorrect|CMD_NOT_ALLOWED|not allowed in this atlas tier/i.test(message);
}

/** The tiers whose figures would be the throttle's: the shared ones, which the probe cannot tell apart. */
const THROTTLED = 'shared tier (M0 or Flex; the retired M2 and M5 alike)';
/** The tiers that give getParameter to a user with the privilege. */
const DEDICATED = 'dedicated tier (M10 or larger)';

/**
 * What the server says of its Atlas deployment, or null where it is not Atlas:
 * { version (atlasVersion's, or null), tier (THROTTLED, DEDICATED, or null where the server's
 * answer was neither), throttled (true, false, or null), evidence (the answer the tier was read
 * from) }. getParameter featureCompatibilityVersion is the probe: M0 and Flex allow getParameter
 * only for authSchemaVersion and authenticationMechanisms.
 */
async function describeAtlas(admin, uri) {
  let version = null;
  try {
    const answer = await admin.command({ atlasVersion: 1 });
    version = answer?.atlasVersion || answer?.version || null;
  } catch { /* not Atlas, or not said */ }
  if (!version && !isAtlasUri(uri)) return null;
  try {
    await admin.command({ getParameter: 1, featureCompatibilityVersion: 1 });
    return { version, tier: DEDICATED, throttled: false, evidence: 'getParameter featureCompatibilityVersion answered' };
  } catch (err) {
    const said = String(err?.message || err).split('\n')[0];
    if (isTierRefusal(err)) return { version, tier: THROTTLED, throttled: true, evidence: `getParameter: ${said}` };
    if (err?.code === 13 || err?.codeName === 'Unauthorized') {
      return { version, tier: DEDICATED, throttled: false, evidence: 'getParameter refused for want of a privilege (Unauthorized), which only a dedicated cluster answers' };
    }
    return { version, tier: null, throttled: null, evidence: `getParameter: ${said}` };
  }
}

/**
 * The one line that refuses a throttled tier before anything runs, or null. Their operations are
 * rationed (Atlas's M0 and Flex limits), their storage capped at 512 MB and their serverStatus cut
 * down to a few fields, so every figure measured there would be the ration's, not the server's.
 */
function throttledTierLine(name, atlas) {
  if (!atlas?.throttled) return null;
  return `server '${name}' is on an Atlas ${atlas.tier} (${atlas.evidence}): these tiers ration operations per second, cap storage at 512 MB and cut serverStatus down, so every figure would be the ration's, not the server's; run the kit on an M10 or larger cluster`;
}

/**
 * The one line that says Atlas did not tell its tier, or null: the probe got an answer that is
 * neither a shared tier's refusal nor a dedicated cluster's (a network error, another code). The
 * server is measured, as a dedicated cluster would be; the line says what that assumes.
 */
function unknownTierLine(name, atlas) {
  if (!atlas || atlas.tier !== null) return null;
  return `server '${name}' is on Atlas but did not say its tier (${atlas.evidence}): it is measured as a dedicated cluster; were it a shared tier (M0, Flex), every figure would be the ration's, not the server's`;
}

module.exports = {
  isAtlasUri, isTierRefusal, describeAtlas, throttledTierLine, unknownTierLine, THROTTLED, DEDICATED, ATLAS_HOST,
};
