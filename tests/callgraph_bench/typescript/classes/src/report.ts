import { Shape, Rect, Square, Circle } from './shapes';

export function report(): string[] {
  const shapes: Shape[] = [new Rect(2, 3), Shape.unit(), new Circle()];
  const sq = new Square(4);
  const lines = shapes.map((s) => s.describe());
  lines.push(sq.describe(), String(sq.side()));
  return lines;
}
