export const TAX = 0.2;

export function price(item) {
  return round(item.unit * item.qty);
}

function round(x) {
  return Math.round(x * 100) / 100;
}
