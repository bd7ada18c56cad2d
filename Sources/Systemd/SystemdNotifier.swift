import CSystemd
import Glibc

/// Sends sd_notify(3) states to the service manager.
///
/// Outside systemd (no `NOTIFY_SOCKET`) every call is a no-op, so a daemon can notify unconditionally.
/// The environment is kept (`unset_environment` is 0): watchdog pings need `NOTIFY_SOCKET` for the
/// whole life of the process.
public struct SystemdNotifier: Sendable {
    /// Creates a notifier; it holds no state.
    public init() {}

    /// Whether a service manager listens for notifications.
    public var isActive: Bool {
        getenv("NOTIFY_SOCKET") != nil
    }

    /// Sends `states` in one datagram.
    ///
    /// - Returns: `true` if systemd received it, `false` outside systemd.
    /// - Throws: `SystemdError` when the notification socket refuses the message.
    @discardableResult
    public func notify(_ states: NotifyState...) throws(SystemdError) -> Bool {
        try notify(states)
    }

    /// Sends `states` in one datagram.
    @discardableResult
    public func notify(_ states: [NotifyState]) throws(SystemdError) -> Bool {
        let result = sd_notify(0, NotifyState.message(states))
        if result < 0 { throw SystemdError(function: "sd_notify", result: result) }
        return result > 0
    }

    /// Runs a reload between `RELOADING=1` and `READY=1`, and reports its outcome in `STATUS=`.
    ///
    /// systemd shows the unit as reloading until `READY=1`. That `READY=1` is sent whether `body` succeeds
    /// or throws: a failed reload leaves the previous configuration in service, so the service is still
    /// ready, and `failureStatus` says why in `systemctl status`. The error is rethrown for the journal.
    public func reload<Loaded>(
        _ body: () async throws -> Loaded,
        status: (Loaded) -> String,
        failureStatus: (any Error) -> String
    ) async throws -> Loaded {
        _ = try? notify(.reloadingNow(), .status("Reloading configuration"))
        do {
            let loaded = try await body()
            _ = try? notify(.ready, .status(status(loaded)))
            return loaded
        } catch {
            _ = try? notify(.ready, .status(failureStatus(error)))
            throw error
        }
    }
}
