import AppFlipClient
import AppFlipDaemon
import AppFlipProtocol
import AppFlipTestSupport
import AppFlipTesting
import Glibc
import NIOConcurrencyHelpers
import NIOCore
import Testing

/// A request survives a daemon that is not there yet or dies mid-handoff: `AppFlipConnection.send(_:to:)`.
@Suite struct RestartTests {
    static let quickRetries = RetryPolicy(maxAttempts: 200, initialBackoff: .milliseconds(10), maxBackoff: .milliseconds(100))

    @Test func aRequestWaitsForADaemonThatIsNotListeningYet() async throws {
        let daemon = try TestDaemon.make(apps: [TestApp(appID: "T.accept", domains: ["applinks:accept.test"], handler: .accept)])
        defer { TestDirectory.remove(daemon.directory) }
        let retries = NIOLockedValueBox(0)
        let request = Task {
            try await AppFlipConnection.send(
                .open(OpenRequest(activity: Activity(webpageURL: "https://accept.test/"))),
                to: daemon.socketPath,
                retry: Self.quickRetries
            ) { _, _ in
                retries.withLockedValue { $0 += 1 }
            }
        }
        do {
            try await waitUntil("a first failed attempt while no daemon listens") { retries.withLockedValue { $0 } > 0 }
        } catch {
            request.cancel()
            throw error
        }
        let (reply, exit) = try await TestDaemonProcess.run(daemon) { _ in try await request.value }
        guard case .success(.open(let result)) = reply.outcome else {
            Issue.record("not handled: \(reply)")
            return
        }
        #expect(result.status == .handled)
        #expect(exit.status == 0)
    }

    /// The honest case: the first daemon ran the handler, then died before replying. The retry is
    /// delivered again by the next daemon — at least once, never lost.
    @Test func anOpenCutByKill9IsRetriedAndDeliveredByTheNextDaemon() async throws {
        let daemon = try TestDaemon.make(apps: [
            TestApp(
                appID: "T.slow",
                domains: ["applinks:slow.test"],
                // Runs in apps.d: counts its deliveries one directory up, then takes long enough to be killed.
                handler: .script("read activity; echo delivered >> ../deliveries; sleep 2")
            )
        ])
        defer { TestDirectory.remove(daemon.directory) }
        let deliveries = daemon.directory + "/deliveries"
        let retries = NIOLockedValueBox<[String]>([])
        let (request, firstExit) = try await TestDaemonProcess.run(daemon) { pid in
            let request = Task {
                try await AppFlipConnection.send(
                    .open(OpenRequest(activity: Activity(webpageURL: "https://slow.test/flip"))),
                    to: daemon.socketPath,
                    retry: Self.quickRetries
                ) { _, error in
                    retries.withLockedValue { $0.append("\(error)") }
                }
            }
            do {
                try await waitUntil("the first daemon running the handler") { Self.lineCount(deliveries) >= 1 }
            } catch {
                request.cancel()
                throw error
            }
            kill(pid, SIGKILL)
            return request
        }
        #expect(firstExit.signal == SIGKILL)
        // The same configuration, a new process: the stale socket file is replaced, the retry connects.
        let (reply, secondExit) = try await TestDaemonProcess.run(daemon) { _ in try await request.value }
        guard case .success(.open(let result)) = reply.outcome else {
            Issue.record("not handled: \(reply)")
            return
        }
        #expect(result.status == .handled)
        #expect(Self.lineCount(deliveries) == 2)
        let seen = retries.withLockedValue { $0 }
        #expect(seen.first == "\(ClientError.connectionClosed)")
        #expect(secondExit.status == 0)
    }

    @Test func aReplyIsFinalEvenWhenItIsAnError() async throws {
        try await withTestDaemon(apps: []) { daemon in
            let retries = NIOLockedValueBox(0)
            let reply = try await AppFlipConnection.send(
                .open(OpenRequest(activity: Activity(webpageURL: "https://nobody.test/"), options: OpenOptions(universalLinksOnly: true))),
                to: daemon.socketPath,
                retry: Self.quickRetries
            ) { _, _ in
                retries.withLockedValue { $0 += 1 }
            }
            #expect(reply.error?.code == .noApp, "\(reply)")
            #expect(retries.withLockedValue { $0 } == 0)
        }
    }

    @Test func anUnreachableDaemonFailsAfterTheLastAttempt() async throws {
        let retries = NIOLockedValueBox(0)
        await #expect(throws: (any Error).self) {
            try await AppFlipConnection.send(
                .apps,
                to: "/nonexistent-appflipd-test/appflipd.sock",
                retry: RetryPolicy(maxAttempts: 3, initialBackoff: .milliseconds(1))
            ) { _, _ in
                retries.withLockedValue { $0 += 1 }
            }
        }
        #expect(retries.withLockedValue { $0 } == 2)
    }

    @Test func backoffDoublesUpToTheMaximum() {
        let policy = RetryPolicy(maxAttempts: 10, initialBackoff: .milliseconds(50), maxBackoff: .milliseconds(300))
        #expect(
            (2...6).map { policy.backoff(beforeAttempt: $0) } == [
                .milliseconds(50), .milliseconds(100), .milliseconds(200), .milliseconds(300), .milliseconds(300),
            ]
        )
    }

    @Test func onlyANoReplyErrorIsRetryable() {
        #expect(RetryPolicy.isRetryable(ClientError.connectionClosed))
        #expect(RetryPolicy.isRetryable(IOError(errnoCode: ECONNREFUSED, reason: "connect")))
        #expect(RetryPolicy.isRetryable(ErrorBody(.shuttingDown, "stopping")))
        #expect(!RetryPolicy.isRetryable(ErrorBody(.noApp, "nobody")))
        #expect(!RetryPolicy.isRetryable(IOError(errnoCode: EACCES, reason: "connect")))
        #expect(!RetryPolicy.isRetryable(ClientError.protocolViolation("garbage")))
    }

    /// Lines in the file at `path`; 0 when it does not exist yet.
    static func lineCount(_ path: String) -> Int {
        guard let file = fopen(path, "r") else { return 0 }
        defer { fclose(file) }
        var count = 0
        while true {
            let character = getc(file)
            if character == EOF { return count }
            if character == 0x0A { count += 1 }
        }
    }

}
