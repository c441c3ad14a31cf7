export { formatDay as day } from './format';
