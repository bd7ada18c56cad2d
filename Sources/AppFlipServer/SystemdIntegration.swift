import AppFlipConfiguration
import AppFlipDaemon
import AppFlipProtocol
import Logging
import NIOCore
import ServiceLifecycle
import Systemd

/// What appflipd does for systemd: logs to journald, adopts the socket `appflipd.socket` passes, and
/// reports readiness, reloads, stopping and liveness. Outside systemd every part falls back or is a no-op.
struct SystemdIntegration: Sendable {
    /// `FileDescriptorName=` of `appflipd.socket`.
    static let socketName = "appflipd"

    let notifier = SystemdNotifier()
    /// The listening socket systemd passed, if it activated this process.
    let activatedSocket: Int32?

    /// Logs go to journald when stderr is the journal stream, to stderr otherwise. Call once, before
    /// the first `Logger` is made.
    static func bootstrapLogging(level: Logger.Level) {
        LoggingSystem.bootstrap { label in
            var handler = JournalLogHandler(label: label, identifier: "appflipd")
            handler.logLevel = level
            return handler
        }
    }

    /// Takes the sockets systemd passed. Call before any process is spawned: it unsets `LISTEN_FDS`, so
    /// that exec handlers do not inherit the claim.
    init() throws {
        activatedSocket = try SocketActivation.listeningUnixStreamSocket(named: Self.socketName, in: try SocketActivation.takeSockets())
    }

    /// The socket systemd passed, else the path to bind.
    func listener(path: String?) throws(ConfigurationError) -> ListenerSource {
        if let activatedSocket { return .fileDescriptor(activatedSocket) }
        if let path { return .path(path) }
        do {
            return .path(try SocketPath.defaultPath())
        } catch {
            throw ConfigurationError(file: "appflipd", field: "socket", error.description)
        }
    }

    /// `READY=1` once the daemon accepts connections, with a status for `systemctl status`.
    func ready(_ address: DaemonService.ListeningAddress) {
        _ = try? notifier.notify(.ready, .status(Self.servingStatus(apps: address.staticApps)))
    }

    static func servingStatus(apps: Int) -> String {
        "Serving \(apps) static app\(apps == 1 ? "" : "s")"
    }

    /// The services systemd needs next to the daemon, in `ServiceGroup` order: the watchdog first, so
    /// that it is shut down last and keeps pinging while the daemon drains; `STOPPING=1` last, so that
    /// it is said first.
    func services(
        daemon: DaemonService,
        eventLoopGroup: any EventLoopGroup,
        logger: Logger
    ) -> (beforeDaemon: [ServiceGroupConfiguration.ServiceConfiguration], afterDaemon: [ServiceGroupConfiguration.ServiceConfiguration]) {
        var before: [ServiceGroupConfiguration.ServiceConfiguration] = []
        if let watchdog = SystemdWatchdog(notifier: notifier) {
            logger.debug("watchdog enabled", metadata: ["timeout": "\(watchdog.timeout)"])
            before.append(.init(service: WatchdogService(watchdog: watchdog, eventLoopGroup: eventLoopGroup), successTerminationBehavior: .ignore))
        }
        let after: [ServiceGroupConfiguration.ServiceConfiguration] = [
            .init(service: HangupReloadService(daemon: daemon, notifier: notifier, logger: logger), successTerminationBehavior: .ignore),
            .init(service: StoppingNotice(daemon: daemon, notifier: notifier), successTerminationBehavior: .ignore),
        ]
        return (before, after)
    }
}
