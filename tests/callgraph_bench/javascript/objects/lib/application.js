'use strict';

const response = require('./response');

module.exports = class Application {
  constructor() {
    this.response = Object.create(response);
  }

  respond(field) {
    this.response.vary(field);
    return this.toJSON();
  }

  toJSON() {
    return {};
  }
};
