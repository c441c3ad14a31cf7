export interface HasArea {
  area(): number;
}

export class Tile implements HasArea {
  constructor(private side: number) {}

  area(): number {
    return this.side * this.side;
  }
}

export function largest<S extends HasArea>(shapes: S[]): S | undefined {
  let best: S | undefined;
  for (const s of shapes) {
    if (!best || s.area() > best.area()) best = s;
  }
  return best;
}

export function totalArea<S extends HasArea>(first: S, second: S): number {
  return first.area() + second.area();
}
