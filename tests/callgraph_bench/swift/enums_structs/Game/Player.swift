struct Player {
    enum State {
        case idle, moving

        func next() -> State { self == .idle ? .moving : .idle }
    }

    private(set) var position = Position.origin
    private(set) var facing = Direction.north
    private(set) var state = State.idle
    private(set) var history: [Position] = []

    mutating func apply(_ command: Command) {
        switch command {
        case let .walk(direction, steps):
            facing = direction
            position = position.moved(direction, by: steps)
            state = state.next()
        case .turn:
            facing = facing.turnedRight()
        case .teleport(let target):
            record(target)
            position = target
        case .quit:
            break
        }
        record(position)
    }

    private mutating func record(_ position: Position) {
        history.append(position)
    }

    func distanceWalked() -> Int {
        var total = 0
        for (index, step) in history.enumerated() where index > 0 {
            total += history[index - 1].distance(to: step)
        }
        return total
    }
}
