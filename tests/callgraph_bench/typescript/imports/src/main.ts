import * as ops from './math/ops';
import { describe } from './math/format';
import type { Options } from './types';

export function run(opts: Options): string {
  const base = ops.add(opts.start, 1);
  return describe(ops.default(base));
}

console.log(run({ start: 2 }));
