public struct Forecast {
    public let city: String
    public let celsius: Double

    public func summary() -> String {
        "\(city): \(format(celsius))"
    }
}

func format(_ celsius: Double) -> String {
    "\(Int(celsius.rounded()))°C"
}
