struct Rectangle: Shape {
    let width: Double
    let height: Double

    init(width: Double, height: Double) {
        self.width = max(0, width)
        self.height = max(0, height)
    }

    init(square side: Double) {
        self.init(width: side, height: side)
    }

    var name: String { isSquare() ? "square" : "rectangle" }

    func isSquare() -> Bool { width == height }

    func area() -> Double { width * height }

    func scaled(by factor: Double) -> Shape {
        Rectangle(width: width * factor, height: height * factor)
    }
}
