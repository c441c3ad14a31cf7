actor Scheduler {
    private var queue: [any Job] = []
    private var results: [String: Int] = [:]
    private let stats = Stats()

    func enqueue(_ job: some Job) {
        queue.append(job)
        stats.count(job.name)
    }

    func drain() async -> [String: Int] {
        while !queue.isEmpty {
            let job = queue.removeFirst()
            await execute(job)
        }
        return results
    }

    private func execute(_ job: any Job) async {
        do {
            results[job.name] = try await job.run()
        } catch {
            stats.fail(job.name)
        }
    }

    func report() -> String {
        stats.summary()
    }
}
