import { Context } from './context';

export const handler = (c: Context): string => {
  c.status(201);
  return c.header('x-app', 'demo').json({ ok: true });
};

export function serve(): string {
  return handler(new Context());
}
