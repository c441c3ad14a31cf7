import { debounce, mapValues, compose } from './util.js';

function double(x) {
  return x * 2;
}

function inc(x) {
  return x + 1;
}

export function save(state) {
  return JSON.stringify(state);
}

export function setup() {
  const saveLater = debounce(save, 100);
  const doubled = mapValues({ a: 1 }, double);
  const both = compose(double, inc);
  saveLater(doubled);
  return [1, 2].map((n) => inc(both(n)));
}
