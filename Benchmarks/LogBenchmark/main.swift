import Dispatch
import Glibc
import Logging
import Systemd

// The CPU cost of appflipd's per-handoff record through `JournalLogHandler` to stderr (here /dev/null), alone:
// the callers' part (the record, and the queueing, which the daemon pays on its event loops) in wall time, and
// the whole (with the writer thread's entry, line and write) in CPU time of both threads, per record, logged
// from one thread and from two at once (the daemon's two event loops). Two ways: `metadata`, a swift-log call
// with the record's ten fields in a `Logger.Metadata` (what any other handler gets), and `packed`, the record
// packed into the writer's queue as a `JournalRecordKind` (what the daemon does, `JournalHandoffLog`). Its URL
// is a plain string: the daemon's redaction of the URL is not in it. Records go in chunks, each written out before the next (an
// error is written after everything queued before it): all at once, they would pass the writer's 8 MiB bound
// and be dropped, not written. Run in release: `swift run -c release LogBenchmark` (`LOGFILE=PATH` writes the
// lines to that file instead).

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

/// The record as the daemon's `HandoffRecord` packs it: in the order of its field names, as fields of a kind
/// its handler made once (`JournalHandoffLog`).
struct Record {
    static let fields = ["app", "client", "handoff_id", "hop", "latency_us", "outcome", "peer_pid", "peer_uid", "rule", "url"]
    static let kind = handler.recordKind(level: .info, fields: fields.map { JournalRecordKind.Field($0) }, source: "LogBenchmark")

    let index: Int

    var metadata: Logger.Metadata {
        [
            "handoff_id": .stringConvertible(index), "hop": .stringConvertible(0), "url": .stringConvertible(url),
            "app": .string(app), "rule": .string(rule), "outcome": "handled", "latency_us": .stringConvertible(index % 100),
            "peer_uid": .stringConvertible(0), "peer_pid": .stringConvertible(4242), "client": .string(client),
        ]
    }

    func pack(into packer: inout JournalRecordPacker) {
        packer.message("handoff ")
        packer.message("handled")
        packer.text(0, app)
        packer.text(1, client)
        packer.number(2, index)
        packer.number(3, 0)
        packer.number(4, index % 100)
        packer.text(5, "handled")
        packer.number(6, 4242)
        packer.number(7, 0)
        packer.text(8, rule)
        packer.text(9, url)
    }
}

let devNull = getenv("LOGFILE").map { open($0, O_WRONLY | O_CREAT | O_TRUNC, 0o644) } ?? open("/dev/null", O_WRONLY)
dup2(devNull, STDERR_FILENO)
let handler = JournalLogHandler(label: "appflipd", destination: .standardError, metadataProvider: nil)
let logger = Logger(label: "appflipd", factory: { _ in handler })
print("path      threads  records  callers µs/record (wall)  whole µs/record (CPU)")
for path in ["metadata", "packed"] {
    for threads in [1, 2] {
        for _ in 1...rounds {
            let cpuStart = cpuMicros()
            var callerMicros = 0.0
            for first in stride(from: 0, to: records, by: chunk) {
                let wallStart = wallMicros()
                DispatchQueue.concurrentPerform(iterations: threads) { thread in
                    for index in stride(from: first + thread, to: first + chunk, by: threads) {
                        let record = Record(index: index)
                        if path == "packed" {
                            handler.log(Record.kind) { record.pack(into: &$0) }
                        } else {
                            logger.info("handoff handled", metadata: record.metadata)
                        }
                    }
                }
                callerMicros += wallMicros() - wallStart
                logger.error("drained")
            }
            let wholeMicros = cpuMicros() - cpuStart
            let callers = format(callerMicros * Double(threads) / Double(records))
            let whole = format(wholeMicros / Double(records))
            print("\(path + String(repeating: " ", count: 10 - path.count))\(threads)        \(records)   \(callers)                      \(whole)")
        }
    }
}
