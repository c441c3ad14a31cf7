export abstract class Shape {
  constructor(protected name: string) {}

  abstract area(): number;

  describe(): string {
    return `${this.name}: ${this.area().toFixed(2)}`;
  }

  static unit(): Square {
    return new Square(1);
  }
}

export class Rect extends Shape {
  constructor(private w: number, private h: number) {
    super('rect');
  }

  area(): number {
    return this.w * this.h;
  }
}

export class Square extends Rect {
  constructor(side: number) {
    super(side, side);
  }

  get diagonal(): number {
    return Math.sqrt(2) * this.side();
  }

  side(): number {
    return Math.sqrt(this.area());
  }
}

export class Circle extends Shape {
  radius = 1;

  area(): number {
    return Math.PI * this.radius ** 2;
  }
}
