import Dispatch
import Glibc
import Logging
import Systemd

// The CPU cost of appflipd's per-handoff record through `JournalLogHandler` to stderr (here /dev/null), alone:
// the callers' part (the metadata, swift-log and the queueing, which the daemon pays on its event loops) in
// wall time, and the whole (with the writer thread's entry, line and write) in CPU time of both threads, per
// record, logged from one thread and from two at once (the daemon's two event loops). The record is the one
// `HandoffRecorder` logs, but with its URL as a plain string: the daemon's redaction of the URL is not in it.
// Records go in chunks, each written out before the next (an error is written after everything queued before
// it): all at once, they would pass the writer's 8 MiB bound and be dropped, not written. Run in release:
// `swift run -c release LogBenchmark` (`LOGFILE=PATH` writes the lines to that file instead).

let records = 200_000
let chunk = 4_000
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
let client = ["c", "load"].joined(separator: "-")

let devNull = getenv("LOGFILE").map { open($0, O_WRONLY | O_CREAT | O_TRUNC, 0o644) } ?? open("/dev/null", O_WRONLY)
dup2(devNull, STDERR_FILENO)
let logger = Logger(label: "appflipd", factory: { label in JournalLogHandler(label: label, destination: .standardError) })
print("threads  records  callers µs/record (wall)  whole µs/record (CPU)")
for threads in [1, 2] {
    for _ in 1...rounds {
        let cpuStart = cpuMicros()
        var callerMicros = 0.0
        for first in stride(from: 0, to: records, by: chunk) {
            let wallStart = wallMicros()
            DispatchQueue.concurrentPerform(iterations: threads) { thread in
                for index in stride(from: first + thread, to: first + chunk, by: threads) {
                    logger.info(
                        "handoff handled",
                        metadata: [
                            "handoff_id": .stringConvertible(index), "hop": .stringConvertible(0), "url": .stringConvertible(url),
                            "app": .string(app), "rule": .string(rule), "outcome": "handled", "latency_us": .stringConvertible(index % 100),
                            "peer_uid": .stringConvertible(0), "peer_pid": .stringConvertible(4242), "client": .string(client),
                        ]
                    )
                }
            }
            callerMicros += wallMicros() - wallStart
            logger.error("drained")
        }
        let wholeMicros = cpuMicros() - cpuStart
        let callers = format(callerMicros * Double(threads) / Double(records))
        print("\(threads)        \(records)   \(callers)                      \(format(wholeMicros / Double(records)))")
    }
}
