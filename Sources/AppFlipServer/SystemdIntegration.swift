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
        daemon: DaemonService, eventLoopGroup: any EventLoopGroup, logger: Logger
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

/// Pings systemd's watchdog while every event loop of the daemon's group runs a no-op task: one wedged
/// loop (a blocking call, a deadlock, SIGSTOP) stops the pings, and systemd restarts the service.
struct WatchdogService: Service {
    let watchdog: SystemdWatchdog
    let eventLoopGroup: any EventLoopGroup

    func run() async throws {
        let group = eventLoopGroup
        do {
            try await cancelWhenGracefulShutdown {
                try await watchdog.run { await Self.everyLoopAnswers(group) }
            }
        } catch is CancellationError {}
    }

    /// Whether each event loop ran a no-op task; hangs while one does not, which is the failed answer.
    static func everyLoopAnswers(_ group: any EventLoopGroup) async -> Bool {
        let answers = group.makeIterator().map { loop in loop.submit {} }
        for answer in answers {
            guard (try? await answer.get()) != nil else { return false }
        }
        return true
    }
}

/// Says `STOPPING=1` as soon as a graceful shutdown begins, before the daemon drains.
struct StoppingNotice: Service {
    let daemon: DaemonService
    let notifier: SystemdNotifier

    func run() async throws {
        do {
            try await gracefulShutdown()
        } catch {
            return  // cancelled: the group is ending without a graceful stop
        }
        let inFlight = daemon.handoffsInFlight
        _ = try? notifier.notify(.stopping, .status("Stopping: draining \(inFlight) handoff\(inFlight == 1 ? "" : "s") in flight"))
    }
}
