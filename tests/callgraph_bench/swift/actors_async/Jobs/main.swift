let scheduler = Scheduler()
let jobs = [SleepJob(name: "nap", seconds: 1), SleepJob(name: "rest", seconds: 2)]
let summary = await timed("all") {
    await runAll(jobs, on: scheduler)
}
await scheduler.enqueue(SumJob(values: [1, 2, 3]))
let results = await scheduler.drain()
print(summary, results)

Task {
    let worker = Worker(scheduler: scheduler)
    await worker.start()
}
