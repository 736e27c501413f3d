'use strict';
// A finding's rule in words, made from its threshold table (rules.js) by its kind (analysis/
// checks/: each kind's words), and never typed beside it: published.json's decidedBy says what is
// compared and on which clock, and these words say where each status begins. A unit test holds
// every figure in them to the thresholds.
const { ruleOf } = require('./rules');
const { kindOf } = require('./checks');
const { bandsText } = require('./checks/threshold-words');
const { checkOf } = require('./judge');

/**
 * A finding's rule in words, as its kind says it: its bands, or for a growth held to the
 * article's figure at each of its points, the bands from each point on ("from 1,000 per blog:
 * holds where …; from 10,000: …"), its flat part after; a crossing's margin. Empty for a finding
 * only published.
 */
function ruleText(finding) {
  const check = checkOf(finding);
  return kindOf(check.kind)?.words(check) ?? '';
}

/** A finding's rule (its check's threshold table, held to the article's figure), for a view's bands. */
const ruleOfFinding = (finding) => ruleOf(checkOf(finding));

module.exports = { ruleText, bandsText, ruleOfFinding };
