package game

enum Direction(val dx: Int, val dy: Int):
  case North extends Direction(0, -1)
  case East  extends Direction(1, 0)
  case South extends Direction(0, 1)
  case West  extends Direction(-1, 0)

  def opposite: Direction = this match
    case North => South
    case South => North
    case East  => West
    case West  => East

  def turnRight: Direction = Direction.fromOrdinal((ordinal + 1) % 4)
end Direction
