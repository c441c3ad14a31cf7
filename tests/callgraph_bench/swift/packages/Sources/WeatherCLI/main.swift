import WeatherKit
import Networking

let client = HTTPClient(baseURL: "https://api.example.com")
let service = ForecastService(client: client)
let forecast = try await service.forecast(for: "Oslo")
log(forecast.summary())
