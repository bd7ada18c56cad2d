import Glibc

/// One assignment of the sd_notify(3) protocol, as systemd reads it from the notification socket.
public enum NotifyState: Sendable, Hashable {
    /// Start-up (or a reload) is finished: systemd may consider the service started.
    case ready
    /// A reload has begun. systemd needs the CLOCK_MONOTONIC time it began to pair it with the `READY=1`
    /// that ends it.
    case reloading(monotonicMicroseconds: UInt64)
    /// The service has begun to shut down; systemd shows it as deactivating.
    case stopping
    /// The keep-alive ping for `WatchdogSec=`.
    case watchdog
    /// A one-line status for `systemctl status`. Line breaks are replaced by spaces, because a newline
    /// would start a new assignment.
    case status(String)

    /// A reload beginning now.
    public static func reloadingNow() -> NotifyState {
        .reloading(monotonicMicroseconds: monotonicMicroseconds())
    }

    /// The `KEY=value` line that systemd parses.
    public var assignment: String {
        switch self {
        case .ready: "READY=1"
        case .reloading(let microseconds): "RELOADING=1\nMONOTONIC_USEC=\(microseconds)"
        case .stopping: "STOPPING=1"
        case .watchdog: "WATCHDOG=1"
        case .status(let text): "STATUS=" + Self.singleLine(text)
        }
    }

    /// The datagram for several states, sent at once so that systemd applies them together.
    public static func message(_ states: [NotifyState]) -> String {
        states.map(\.assignment).joined(separator: "\n")
    }

    private static func singleLine(_ text: String) -> String {
        String(text.map { $0.isNewline ? " " : $0 })
    }

    private static func monotonicMicroseconds() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) * 1_000_000 + UInt64(now.tv_nsec) / 1_000
    }
}
