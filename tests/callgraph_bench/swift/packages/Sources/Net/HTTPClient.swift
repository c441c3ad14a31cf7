import Foundation

public struct Request {
    public let path: String

    public init(path: String) {
        self.path = path
    }
}

public final class HTTPClient {
    private let baseURL: String

    public init(baseURL: String) {
        self.baseURL = baseURL
    }

    public func get(_ request: Request) async throws -> Data {
        let url = makeURL(for: request)
        return try await fetch(url)
    }

    func makeURL(for request: Request) -> String {
        join(baseURL, request.path)
    }
}

func join(_ base: String, _ path: String) -> String {
    base + "/" + path
}

func fetch(_ url: String) async throws -> Data {
    Data(url.utf8)
}
