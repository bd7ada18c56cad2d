import Glibc
import Synchronization

/// Names each top-level handoff for the log: this process's start time in hex, then a counter, so that ids
/// stay unique across restarts (`journalctl APPFLIP_HANDOFF_ID=…` finds one handoff and all its hops).
final class HandoffIDs: Sendable {
    private let prefix: String
    private let counter = Atomic<UInt64>(0)

    init() {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        prefix = String(UInt64(time.tv_sec) &* 1_000_000 &+ UInt64(time.tv_nsec / 1000), radix: 16) + "-"
    }

    /// The next handoff's number; ``name(_:)`` names it only when a log line or event needs it.
    func next() -> UInt64 {
        counter.add(1, ordering: .relaxed).newValue
    }

    /// The handoff's name, spelled out when it is printed.
    func name(_ number: UInt64) -> Name {
        Name(prefix: prefix, number: number)
    }

    struct Name: CustomStringConvertible, Sendable {
        let prefix: String
        let number: UInt64
        var description: String { prefix + String(number) }
    }
}
