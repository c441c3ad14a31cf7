var View = require('./view');

var app = exports = module.exports = {};

app.init = function init() {
  this.settings = {};
  this.defaultConfiguration();
};

app.defaultConfiguration = function defaultConfiguration() {
  this.set('env', 'development');
};

app.set = function set(setting, val) {
  this.settings[setting] = val;
  return this;
};

app.render = function render(name, callback) {
  var view = new View(name);
  view.render({}, callback);
};
