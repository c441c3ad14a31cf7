final class Canvas {
    private var shapes: [Shape] = []
    private let renderer: Renderer

    init(renderer: Renderer) {
        self.renderer = renderer
    }

    func add(_ shape: Shape) {
        shapes.append(shape)
    }

    func totalArea() -> Double {
        shapes.reduce(0) { $0 + $1.area() }
    }

    func largest() -> Shape? {
        var best: Shape?
        for shape in shapes {
            if let current = best, !shape.isLarger(than: current) { continue }
            best = shape
        }
        return best
    }

    func draw() {
        for shape in shapes {
            renderer.render(shape.describe())
        }
        if let top = largest() {
            renderer.highlight(top)
        }
    }
}
