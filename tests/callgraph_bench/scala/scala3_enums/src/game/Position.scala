package game

final case class Position(x: Int, y: Int):
  def move(d: Direction): Position = Position(x + d.dx, y + d.dy)
  def distanceTo(other: Position): Int = (x - other.x).abs + (y - other.y).abs

object Position:
  val Origin: Position = Position(0, 0)

  def parse(s: String): Option[Position] =
    s.split(",") match
      case Array(a, b) => Some(Position(a.trim.toInt, b.trim.toInt))
      case _           => None

extension (p: Position)
  def neighbours: List[Position] = Direction.values.toList.map(p.move)

def manhattan(a: Position, b: Position): Int = a.distanceTo(b)
