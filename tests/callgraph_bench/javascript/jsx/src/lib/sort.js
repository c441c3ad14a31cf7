export function sortBy(items, key) {
  return [...items].sort((a, b) => compare(a[key], b[key]));
}

function compare(a, b) {
  return a < b ? -1 : a > b ? 1 : 0;
}
