import XCTest
@testable import WeatherKit

final class ForecastTests: XCTestCase {
    func testSummary() {
        let forecast = Forecast(city: "Oslo", celsius: 3.4)
        XCTAssertEqual(forecast.summary(), "Oslo: 3°C")
        XCTAssertEqual(format(-0.4), "0°C")
    }

    func testCache() {
        let cache = ForecastCache()
        cache.store(Forecast(city: "Rome", celsius: 20))
        XCTAssertNotNil(cache.lookup("Rome"))
    }
}
