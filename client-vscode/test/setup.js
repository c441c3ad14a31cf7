'use strict';
/**
 * Redirects `require('vscode')` to the stub (before the extension or vscode-languageclient
 * load it) and returns the stub's recorded state.
 */
const Module = require('node:module');

const stubPath = require.resolve('./vscode-stub');
const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  if (request === 'vscode') {
    return stubPath;
  }
  return resolve.call(this, request, ...rest);
};

module.exports = require('vscode');
