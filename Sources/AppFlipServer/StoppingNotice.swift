import AppFlipConfiguration
import AppFlipDaemon
import AppFlipProtocol
import Logging
import NIOCore
import ServiceLifecycle
import Systemd

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
