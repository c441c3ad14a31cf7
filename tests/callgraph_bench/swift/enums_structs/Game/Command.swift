enum Command {
    case walk(Direction, steps: Int)
    case turn
    case teleport(Position)
    case quit

    static func parse(_ line: String) -> Command? {
        let words = line.split(separator: " ")
        switch words.first {
        case "walk":
            return .walk(.north, steps: Int(words.last ?? "") ?? 1)
        case "turn":
            return .turn
        case "home":
            return .teleport(.origin)
        case "quit":
            return .quit
        default:
            return nil
        }
    }

    var isTerminal: Bool {
        if case .quit = self { return true }
        return false
    }
}
