import CSystemd

/// Keeps systemd's `WatchdogSec=` satisfied for as long as the service is really alive.
///
/// It pings at half the interval systemd asked for, and only after `isAlive` answers `true`. The daemon's
/// probe is "every event loop ran a task": a wedged loop, a deadlock or a SIGSTOP means no answer, no ping,
/// and systemd restarts the service. A timer that pings unconditionally would keep a dead daemon alive.
public struct SystemdWatchdog: Sendable {
    /// The `WatchdogSec=` that systemd set for this process.
    public let timeout: Duration
    private let notifier: SystemdNotifier

    /// The watchdog systemd enabled for this process, or `nil` when it enabled none (no `WatchdogSec=`,
    /// not under systemd, or `WATCHDOG_PID` names another process).
    public init?(notifier: SystemdNotifier = SystemdNotifier()) {
        var microseconds: UInt64 = 0
        guard sd_watchdog_enabled(0, &microseconds) > 0, microseconds > 0 else { return nil }
        self.init(timeout: .microseconds(microseconds), notifier: notifier)
    }

    init(timeout: Duration, notifier: SystemdNotifier) {
        self.timeout = timeout
        self.notifier = notifier
    }

    /// How often the pinger asks `isAlive`: half the timeout, as sd_watchdog_enabled(3) recommends.
    public var pingInterval: Duration { timeout / 2 }

    /// Pings until the task running it is cancelled, then throws `CancellationError`. Run it in a child
    /// task next to the daemon's services.
    ///
    /// - Parameter isAlive: answers whether the service still makes progress. A probe that hangs is a
    ///   failed probe: the next ping waits for it.
    public func run(isAlive: @escaping @Sendable () async -> Bool) async throws {
        while true {
            try await Task.sleep(for: pingInterval)
            if await isAlive() {
                _ = try? notifier.notify(.watchdog)
            }
        }
    }
}
