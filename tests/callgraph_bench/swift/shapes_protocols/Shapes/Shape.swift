import Foundation

protocol Shape {
    var name: String { get }
    func area() -> Double
    func scaled(by factor: Double) -> Shape
}

extension Shape {
    func describe() -> String {
        return "\(name): \(format(area()))"
    }

    func isLarger(than other: Shape) -> Bool {
        return area() > other.area()
    }
}

func format(_ value: Double) -> String {
    return String(format: "%.2f", value)
}
