final class Game {
    private var player = Player()
    private let board: Board

    init(size: Int) {
        board = Board(size: size)
    }

    func run(_ lines: [String]) -> Int {
        for line in lines {
            guard let command = Command.parse(line) else { continue }
            if command.isTerminal { break }
            player.apply(command)
            if !board.contains(player.position) {
                player.apply(.teleport(.origin))
            }
        }
        return player.distanceWalked()
    }
}

struct Board {
    let size: Int

    func contains(_ position: Position) -> Bool {
        position.distance(to: .origin) <= size
    }
}
