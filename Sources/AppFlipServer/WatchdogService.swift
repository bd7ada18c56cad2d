import AppFlipConfiguration
import AppFlipDaemon
import AppFlipProtocol
import Logging
import NIOCore
import ServiceLifecycle
import Systemd

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
