public import AppFlipDaemon
public import Logging
public import ServiceLifecycle
public import Systemd
import UnixSignals

/// Reloads the daemon on SIGHUP (`systemctl reload`), between `RELOADING=1` and `READY=1`. A broken
/// configuration keeps the old one in service; `STATUS=` and the journal say why.
public struct HangupReloadService: Service {
    let daemon: DaemonService
    let notifier: SystemdNotifier
    let logger: Logger

    /// Creates the service; it does nothing until the first SIGHUP.
    public init(daemon: DaemonService, notifier: SystemdNotifier = SystemdNotifier(), logger: Logger) {
        self.daemon = daemon
        self.notifier = notifier
        self.logger = logger
    }

    /// Reloads on each SIGHUP until graceful shutdown, telling systemd before and after.
    public func run() async throws {
        for await _ in await UnixSignalsSequence(trapping: .sighup).cancelOnGracefulShutdown() {
            do {
                _ = try await notifier.reload(
                    { try await daemon.reload() },
                    status: { SystemdIntegration.servingStatus(apps: $0) },
                    failureStatus: { "Reload refused, still serving the previous configuration: \($0)" }
                )
            } catch {
                logger.error("reload refused; the previous configuration stays: \(error)")
            }
        }
    }
}
