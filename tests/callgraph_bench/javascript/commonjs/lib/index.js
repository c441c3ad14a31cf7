module.exports = require('./users');
