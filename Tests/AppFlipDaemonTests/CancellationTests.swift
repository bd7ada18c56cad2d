import AppFlipClient
import AppFlipDaemon
import AppFlipProtocol
import AppFlipTesting
import Glibc
import InMemoryLogging
import Logging
import NIOCore
import Testing

/// A daemon whose service group is cancelled, instead of stopped gracefully, stops at once.
@Suite struct CancellationTests {
    /// With a handoff in flight and the longest grace period, cancelling the daemon's task closes its
    /// connections and removes its socket without waiting. (A future's `get()` ignores cancellation: the
    /// daemon once waited on its server's close forever, and took a test past its time limit with it.)
    @Test(.timeLimit(.minutes(5))) func aCancelledDaemonStopsWithoutWaitingOutTheGracePeriod() async throws {
        var configuration = DaemonConfiguration()
        configuration.shutdownGraceSeconds = 600
        let release = AsyncStream.makeStream(of: Void.self)
        defer { release.continuation.finish() }
        let lines = InMemoryLogHandler()
        let logger = Logger(label: "appflipd-test") { _ in lines }
        let (ended, end) = AsyncStream.makeStream(of: Result<Stopped, any Error>.self)
        let daemonTask = Task {
            do {
                let stopped = try await withTestDaemon(configuration: configuration, logger: logger) { daemon in
                    let app = try await daemon.connect()
                    let (pushes, arrived) = AsyncStream.makeStream(of: Void.self)
                    _ = try await app.register(
                        registration("T.held", ["applinks:held.test"]),
                        handler: AsyncLiveApp { _ in
                            arrived.yield()
                            for await _ in release.stream {}
                            return LiveAnswer(continue: true)
                        }
                    )
                    let client = try await daemon.connect()
                    let open = client.send(
                        .open(OpenRequest(activity: Activity(webpageURL: "https://held.test/"), options: .init(universalLinksOnly: true)))
                    )
                    for await _ in pushes { break }
                    withUnsafeCurrentTask { $0?.cancel() }
                    return Stopped(socket: daemon.socketPath, open: open)
                }
                end.yield(.success(stopped))
            } catch {
                end.yield(.failure(error))
            }
        }
        // A bound for a hang, not a speed: the daemon stops in milliseconds or, broken, never.
        let watchdog = Task {
            try? await Task.sleep(for: .seconds(120))
            end.yield(.failure(NotStopped()))
        }
        let outcome = try #require(await ended.first { _ in true })
        watchdog.cancel()
        daemonTask.cancel()
        let stopped = try outcome.get()
        #expect(access(stopped.socket, F_OK) != 0, "the socket file was removed")
        // The handoff in flight did not succeed: an error reply or its connection closed under it.
        let reply = try? await stopped.open.get()
        #expect(reply.map { $0.error != nil } ?? true, "the open request got \(String(describing: reply))")
        let cancelled = lines.entries.filter { $0.message.description.hasPrefix(Self.cancelledLine) }
        #expect(cancelled.map(\.level) == [.warning])
        #expect(cancelled.first?.fields["in_flight"] == "1")
    }

    /// A graceful stop is not reported as a cancellation.
    @Test(.timeLimit(.minutes(5))) func aGracefulStopIsNotReportedAsCancelled() async throws {
        let lines = InMemoryLogHandler()
        let logger = Logger(label: "appflipd-test") { _ in lines }
        try await withTestDaemon(logger: logger) { daemon in
            let connection = try await daemon.connect()
            #expect(try await connection.apps().isEmpty)
        }
        #expect(lines.entries.contains { $0.message.description == "stopped" })
        #expect(!lines.entries.contains { $0.message.description.hasPrefix(Self.cancelledLine) })
    }

    static let cancelledLine = "cancelled instead of stopped gracefully"

    struct Stopped: Sendable {
        let socket: String
        let open: EventLoopFuture<Reply>
    }

    struct NotStopped: Error, CustomStringConvertible {
        var description: String { "the cancelled daemon had not stopped after 120 seconds" }
    }
}
