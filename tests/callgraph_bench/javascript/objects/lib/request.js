'use strict';

const { parseType } = require('./util');

module.exports = {
  get header() {
    return this.req.headers;
  },

  get type() {
    const type = this.get('Content-Type');
    return parseType(type);
  },

  get(field) {
    return this.header[field.toLowerCase()] || '';
  },

  is: function (types) {
    return types.includes(this.type);
  },
};
