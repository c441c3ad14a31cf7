export function upper(s: string): string {
  return s.toUpperCase();
}

export function shout(s: string): string {
  return upper(s) + '!';
}
