'use strict';
// The words of a verdict live with the analysis (analysis/verdict-words.js), where verdicts.json
// and the report both reach them downward; this name stays for report/compare.js until compare
// goes through the analysis too.
module.exports = require('../analysis/verdict-words');
