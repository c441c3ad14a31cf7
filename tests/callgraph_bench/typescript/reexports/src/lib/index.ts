export * from './strings';
export * as numbers from './numbers';
export * from './dates';
