// swift-tools-version:5.7
import PackageDescription

let package = Package(
    name: "Weather",
    products: [
        .executable(name: "weather", targets: ["WeatherCLI"]),
    ],
    targets: [
        .target(name: "WeatherKit", dependencies: ["Networking"]),
        .target(name: "Networking", path: "Sources/Net"),
        .executableTarget(name: "WeatherCLI", dependencies: ["WeatherKit", "Networking"]),
        .testTarget(name: "WeatherKitTests", dependencies: ["WeatherKit"]),
    ]
)
