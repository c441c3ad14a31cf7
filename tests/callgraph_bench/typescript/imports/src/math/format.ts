import square, { add as plus } from './ops';

export function describe(x: number): string {
  return `${x}^2 = ${square(x)}, +1 = ${plus(x, 1)}`;
}
