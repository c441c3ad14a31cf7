protocol Renderer {
    func render(_ line: String)
    func highlight(_ shape: Shape)
}

final class ConsoleRenderer: Renderer {
    private(set) var lines: [String] = []

    func render(_ line: String) {
        lines.append(line)
        print(line)
    }

    func highlight(_ shape: Shape) {
        render("* " + shape.describe())
    }
}
