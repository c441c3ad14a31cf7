export function loadConfig(): Record<string, string> {
  return { env: readEnv() };
}

function readEnv(): string {
  return process.env.NODE_ENV ?? 'dev';
}
