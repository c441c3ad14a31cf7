export function Item({ item }) {
  return <li>{label(item)}</li>;
}

function label(item) {
  return item.name.toUpperCase();
}
