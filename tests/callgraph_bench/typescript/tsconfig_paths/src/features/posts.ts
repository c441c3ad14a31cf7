import { loadConfig } from '@core/config';
import { slug } from '@utils';
import { version } from 'lib/version';

export function postUrl(title: string): string {
  const cfg = loadConfig();
  return `/${cfg.env}/${version()}/${slug(title)}`;
}
