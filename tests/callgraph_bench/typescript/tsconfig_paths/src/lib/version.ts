export function version(): string {
  return 'v1';
}
