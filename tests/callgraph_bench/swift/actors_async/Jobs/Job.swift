protocol Job: Sendable {
    var name: String { get }
    func run() async throws -> Int
}

struct SleepJob: Job {
    let name: String
    let seconds: Int

    func run() async throws -> Int {
        try await Task.sleep(nanoseconds: UInt64(seconds) * 1_000_000_000)
        return seconds
    }
}

struct SumJob: Job {
    let name = "sum"
    let values: [Int]

    func run() async throws -> Int {
        values.reduce(0, +)
    }
}
