import adapters from './adapters.js';
import { words } from './util.js';

export function send(config) {
  const adapter = adapters.getAdapter(words(config.adapters));
  return adapter(config);
}
