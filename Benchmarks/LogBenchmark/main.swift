import Dispatch
import Glibc
import Logging
import Systemd

// The CPU cost of appflipd's per-handoff record through `JournalLogHandler` to stderr (here /dev/null), alone:
// the callers' part (the metadata, swift-log and the queueing, which the daemon pays on its event loops) in
// wall time, and the whole (with the writer thread's entry, line and write) in CPU time of both threads, per
// record, logged from one thread and from two at once (the daemon's two event loops). The record is the one
// `HandoffRecorder` logs. Run in release: `swift run -c release LogBenchmark` (`LOGFILE=PATH` writes the
// lines to that file instead).

let records = 200_000
let rounds = 5

func cpuMicros() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    let seconds = usage.ru_utime.tv_sec + usage.ru_stime.tv_sec
    return Double(seconds) * 1e6 + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec)
}

func wallMicros() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Double(time.tv_sec) * 1e6 + Double(time.tv_nsec) / 1e3
}

func format(_ value: Double) -> String { String(Double(Int(value * 100)) / 100) }

/// Values made at run time, as the daemon's are, not string literals.
let url = ["https:", "", "live.bench", "handoff"].joined(separator: "/")
let app = ["BENCH", "live"].joined(separator: ".")
let rule = ["details[0]", "components[0]"].joined(separator: ".")

let devNull = getenv("LOGFILE").map { open($0, O_WRONLY | O_CREAT | O_TRUNC, 0o644) } ?? open("/dev/null", O_WRONLY)
dup2(devNull, STDERR_FILENO)
let logger = Logger(label: "appflipd", factory: { label in JournalLogHandler(label: label, destination: .standardError) })
print("threads  records  callers µs/record (wall)  whole µs/record (CPU)")
for threads in [1, 2] {
    for _ in 1...rounds {
        let cpuStart = cpuMicros()
        let wallStart = wallMicros()
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            for index in 0..<(records / threads) {
                let latency = index % 100
                logger.info(
                    "handoff handled",
                    metadata: [
                        "handoff_id": "h\(thread)-\(index)", "hop": "0", "url": "\(url)", "app": "\(app)", "rule": "\(rule)",
                        "outcome": "handled", "latency_us": "\(latency)", "peer_uid": "0", "peer_pid": "4242", "client": "c-load",
                    ]
                )
            }
        }
        let callerMicros = wallMicros() - wallStart
        // An error is written after everything queued before it: the writer's work is then done.
        logger.error("drained")
        let wholeMicros = cpuMicros() - cpuStart
        let callers = format(callerMicros * Double(threads) / Double(records))
        print("\(threads)        \(records)   \(callers)                      \(format(wholeMicros / Double(records)))")
    }
}
