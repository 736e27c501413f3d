// The log record (the article's LogInfo): in every script of log-inserts and in its SQL
// baseline, sql-baseline.js (Node), so both sides write the same record.
var LOG_SOURCE = 'Test';
var LOG_CATEGORY = 'This is a category';
var LOG_MESSAGE = 'Sed ut perspiciatis unde omnis iste natus error sit voluptatem accusantium doloremque ' +
  'laudantium, totam rem aperiam, eaque ipsa quae ab illo inventore veritatis et quasi architecto beatae ' +
  'vitae dicta sunt explicabo. Nemo enim ipsam voluptatem quia voluptas sit aspernatur aut odit aut fugit, ' +
  'sed quia consequuntur magni dolores eos qui ratione voluptatem sequi nesciunt. Neque porro quisquam est, ' +
  'qui dolorem ipsum quia dolor sit amet, consectetur, adipisci velit, sed quia non numquam eius modi tempora ' +
  'incidunt ut labore et dolore magnam aliquam quaerat voluptatem. Ut enim ad minima veniam, quis nostrum ' +
  'exercitationem ullam corporis suscipit laboriosam, nisi ut aliquid ex ea commodi consequatur? Quis autem ' +
  'vel eum iure reprehenderit qui in ea voluptate velit esse quam nihil molestiae consequatur, vel illum qui ' +
  'dolorem eum fugiat quo voluptas nulla pariatur?';

// LogInfo.AssignRandomType: a new generator seeded with the record's clock reading, as
// new Random((int)LogDate.Ticks).Next(0, 100); `a |= 0` keeps the low 32 bits, as (int) does.
function logTypeOf(logDate) {
  return Math.floor(mulberry32(logDate.getTime())() * 100);
}

function newLogInfo() {
  var logDate = new Date();
  return {
    _id: newGuid(), LogDate: logDate, Source: LOG_SOURCE, Category: LOG_CATEGORY,
    Message: LOG_MESSAGE, LogType: logTypeOf(logDate)
  };
}
