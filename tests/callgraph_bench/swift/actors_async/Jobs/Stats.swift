import Foundation

final class Stats: @unchecked Sendable {
    private var started: [String] = []
    private var failed: [String] = []

    func count(_ name: String) { started.append(name) }

    func fail(_ name: String) { failed.append(name) }

    func summary() -> String {
        "\(started.count) started, \(failed.count) failed"
    }
}

func runAll<J: Job>(_ jobs: [J], on scheduler: Scheduler) async -> String {
    for job in jobs {
        await scheduler.enqueue(job)
    }
    _ = await scheduler.drain()
    return await scheduler.report()
}

func timed<T>(_ label: String, _ body: () async throws -> T) async rethrows -> T {
    let start = Date()
    defer { print(label, Date().timeIntervalSince(start)) }
    return try await body()
}
