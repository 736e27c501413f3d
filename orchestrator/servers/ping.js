'use strict';
const { connectReaching } = require('./reach');

/** Connects, pings and closes: resolves when a server answers within timeoutMs. */
async function pingServer(uri, timeoutMs) {
  const client = await connectReaching(uri, { serverSelectionTimeoutMS: timeoutMs, connectTimeoutMS: timeoutMs });
  try {
    await client.db('admin').command({ ping: 1 });
  } finally {
    await client.close().catch(() => {});
  }
}

module.exports = { pingServer };
