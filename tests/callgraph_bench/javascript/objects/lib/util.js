'use strict';

const helpers = {
  trim(value) {
    return value.trim();
  },
  split(value) {
    return this.trim(value).split(';');
  },
  lower: (value) => helpers.trim(value).toLowerCase(),
  limit: 10,
};

function parseType(type) {
  return helpers.lower(helpers.split(type)[0]);
}

exports.parseType = parseType;
exports.words = function words(text) {
  return helpers.split(text);
};
