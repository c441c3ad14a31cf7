struct Position: Equatable {
    var x: Int
    var y: Int

    static let origin = Position(x: 0, y: 0)

    func moved(_ direction: Direction, by steps: Int = 1) -> Position {
        let (dx, dy) = Position.delta(for: direction)
        return Position(x: x + dx * steps, y: y + dy * steps)
    }

    mutating func move(_ direction: Direction) {
        self = moved(direction)
    }

    static func delta(for direction: Direction) -> (Int, Int) {
        switch direction {
        case .north: return (0, 1)
        case .south: return (0, -1)
        case .east: return (1, 0)
        case .west: return (-1, 0)
        }
    }

    func distance(to other: Position) -> Int {
        abs(x - other.x) + abs(y - other.y)
    }
}
