final class Worker {
    private let scheduler: Scheduler
    private var task: Task<Void, Never>?

    init(scheduler: Scheduler) {
        self.scheduler = scheduler
    }

    func start() async {
        task = Task { [scheduler] in
            let report = await scheduler.report()
            self.publish(report)
        }
    }

    private func publish(_ report: String) {
        print(report)
    }
}
