struct Circle: Shape {
    let radius: Double

    var name: String { "circle r=" + format(radius) }

    func area() -> Double {
        return Double.pi * radius * radius
    }

    func scaled(by factor: Double) -> Shape {
        return Circle(radius: radius * factor)
    }
}
