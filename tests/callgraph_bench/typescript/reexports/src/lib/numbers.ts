export function clamp(x: number, lo: number, hi: number): number {
  return Math.min(hi, Math.max(lo, x));
}

export function percent(x: number): number {
  return clamp(x, 0, 1) * 100;
}
