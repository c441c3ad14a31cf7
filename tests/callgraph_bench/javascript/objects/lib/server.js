'use strict';

const Application = require('./application');

function start() {
  const app = new Application();
  return app.respond('accept');
}

module.exports = start;
