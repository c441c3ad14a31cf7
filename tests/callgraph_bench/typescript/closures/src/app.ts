import { Emitter, once } from './events';

export const log = (message: string): void => {
  console.log(format(message));
};

function format(message: string): string {
  return `[app] ${message}`;
}

export function apply<T>(value: T, fn: (v: T) => void): void {
  fn(value);
}

export function start(): Emitter {
  const emitter = new Emitter();
  const greet = (name: string) => log(`hello ${name}`);
  emitter.on(greet);
  once(emitter, (p) => log(p));
  apply('x', log);
  (function boot() {
    emitter.emit('ready');
  })();
  return emitter;
}
