import { Stack, firstOr } from './collections';
import { Tile, largest, totalArea } from './shapes';

export function main(): number {
  const stack = new Stack<Tile>();
  stack.push(new Tile(2)).push(new Tile(3));
  const top = stack.peek();
  const tiles = [new Tile(1), new Tile(4)];
  const big = largest(tiles);
  const picked = firstOr(tiles, new Tile(5));
  const sum = totalArea(tiles[0], tiles[1]);
  return stack.size() + (top?.area() ?? 0) + (big?.area() ?? 0) + picked.area() + sum;
}
