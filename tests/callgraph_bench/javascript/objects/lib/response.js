'use strict';

const request = require('./request');

module.exports = {
  vary(field) {
    if (request.is(['json'])) {
      return;
    }
    this.set('Vary', field);
  },

  set(field, value) {
    this.headers[field] = value;
  },
};
