export { slug } from './slug';
