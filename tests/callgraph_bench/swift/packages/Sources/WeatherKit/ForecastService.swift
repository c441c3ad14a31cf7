import Networking

public protocol ForecastSource {
    func forecast(for city: String) async throws -> Forecast
}

public final class ForecastService: ForecastSource {
    private let client: HTTPClient
    private let cache = ForecastCache()

    public init(client: HTTPClient) {
        self.client = client
    }

    public func forecast(for city: String) async throws -> Forecast {
        if let hit = cache.lookup(city) {
            return hit
        }
        let data = try await client.get(Request(path: "forecast/\(city)"))
        let forecast = decode(data, city: city)
        cache.store(forecast)
        return forecast
    }
}
