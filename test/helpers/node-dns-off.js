'use strict';
// Preloaded (node --require) into a program a test runs: Node's own resolver (c-ares) asks a port
// where nothing answers, so a name resolves only through the operating system's resolver
// (getaddrinfo, res_query), as on a machine whose DNS only the system's resolver reaches.
require('node:dns').setServers(['127.0.0.1:9']);
