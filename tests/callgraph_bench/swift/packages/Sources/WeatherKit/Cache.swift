import Foundation

final class ForecastCache {
    private var entries: [String: Forecast] = [:]

    func lookup(_ city: String) -> Forecast? {
        entries[city]
    }

    func store(_ forecast: Forecast) {
        entries[forecast.city] = forecast
        log("cached \(forecast.city)")
    }
}

func decode(_ data: Data, city: String) -> Forecast {
    let text = String(decoding: data, as: UTF8.self)
    log("decoding \(text.count) bytes")
    return Forecast(city: city, celsius: Double(text) ?? 0)
}

func log(_ message: String) {
    print("[WeatherKit] \(message)")
}
