export interface Options {
  start: number;
}
