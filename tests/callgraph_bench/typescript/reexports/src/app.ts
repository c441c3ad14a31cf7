import { shout, numbers, day } from './lib';
import { upper } from './lib/index';

export function banner(title: string, progress: number): string {
  return `${shout(title)} ${numbers.percent(progress)}% ${day(new Date())} ${upper(title)}`;
}
