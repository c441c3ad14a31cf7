export function formatDay(d: Date): string {
  return pad(d.getDate());
}

function pad(n: number): string {
  return String(n).padStart(2, '0');
}
