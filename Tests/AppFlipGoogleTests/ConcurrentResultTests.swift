import AppFlipClient
import AppFlipCore
import AppFlipGoogle
import AppFlipProtocol
import AppFlipTesting
import Dispatch
import Logging
import NIOCore
import NIOPosix
import Testing

/// Two flips in flight on one Google app, and a partner that mangles the state of one of them: each flip is
/// judged on its own result only. The good flip's result reaches the Google app first and waits there while
/// the mangled flip is judged, the order in which a result taken by anything but its state goes to the
/// wrong flip.
@Suite struct ConcurrentResultTests {
    static let link = "https://mangle.test/link/flip"
    static let good = "flipB+1"
    static let mangled = "flipA+1"

    static func runner(state: String) throws -> FlipRunner {
        FlipRunner(
            partnerLink: try RawURL(link),
            clientID: TestPartner.clientID,
            scopes: ["profile"],
            state: state,
            redirectURI: FlipRunnerTests.redirect,
            tokenEndpoint: nil,
            timeout: .seconds(30)
        )
    }

    /// Registers the partner app for `https://mangle.test/link/*`: it opens, on the flip's redirect URI, the
    /// query `result` makes of the flip's state.
    static func registerPartner(on daemon: TestDaemon, _ result: @escaping @Sendable (String) async -> String) async throws -> AppFlipConnection {
        let partner = try await daemon.connect(client: "mangling-partner")
        _ = try await partner.register(
            RegisterRequest(appID: "MANGLE0001.test.mangle", domains: ["applinks:mangle.test"], components: [.object(["/": .string("/link/*")])]),
            handler: AsyncLiveApp { push in
                guard let url = try? RawURL(push.activity.webpageURL ?? ""), let state = FlipLink(url).state,
                    let redirectURI = FlipLink(url).redirectURI
                else { return LiveAnswer(continue: false) }
                let query = await result(state)
                return LiveAnswer(
                    continue: true,
                    open: [OpenURLRequest(url: redirectURI + "?" + query, options: OpenOptions(universalLinksOnly: true))]
                )
            }
        )
        return partner
    }

    /// One flip against a partner that opens `query` on the redirect URI.
    static func flip(answering query: String) async throws -> (FlipReport, [String]) {
        try await withTestDaemon { daemon in
            let partner = try await registerPartner(on: daemon) { _ in query }
            let connection = try await daemon.connect()
            let google = try await GoogleApp.register(on: connection, bundleID: "com.google.OPA")
            let report = await (try runner(state: "s")).run(
                connection: connection,
                google: google,
                events: nil,
                httpClient: nil,
                logger: FlipRunnerTests.noLogs
            )
            let left = google.takeAll()
            await connection.close()
            await partner.close()
            return (report, left)
        }
    }

    @Test func aCodeWithoutAStateIsNoResult() async throws {
        let (report, left) = try await Self.flip(answering: "code=code-C")
        #expect(report.exitStatus == 2)
        #expect(
            report.failure
                == "step 4 (result link delivered) failed: no result for this flip: the app opened " + FlipRunnerTests.redirect.string
                + "?code=[redacted:6B], which carries a code but no state, so the Google app would not take it: state is missing; it "
                + "must come back with the code"
        )
        #expect(left.isEmpty)
    }

    @Test func anErrorWithoutAStateIsTheFlipsResult() async throws {
        // The seed's own error sample has no state.
        let (report, left) = try await Self.flip(answering: "error=cancelled")
        #expect(report.exitStatus == 1)
        #expect(report.result == "cancelled")
        #expect(report.deviations == [FlipResultDeviation.stateMissingWithError.description])
        #expect(left.isEmpty)
    }

    @Test(.timeLimit(.minutes(1))) func aMangledResultIsNoResultForItsFlipAndNotTheOtherFlipsResult() async throws {
        try await withTestDaemon { daemon in
            // The partner app: `code-B` with the good flip's state, percent-encoded; `code-A` with the other
            // flip's state written raw, its `+` then read as a space. It answers the good flip when released.
            let (reached, reaching) = AsyncStream.makeStream(of: Void.self)
            let (release, releasing) = AsyncStream.makeStream(of: Void.self)
            defer { releasing.finish() }
            let partner = try await Self.registerPartner(on: daemon) { state in
                guard state == Self.good else { return "code=code-A&state=" + state }
                reaching.yield()
                for await _ in release { break }
                return "code=code-B&state=" + PercentEncoding.encodeStrictly(state)
            }
            let googleConnection = try await daemon.connect()
            let google = try await GoogleApp.register(on: googleConnection, bundleID: "com.google.OPA")
            let watcher = try await daemon.connect(client: "watcher")
            var events = try await watcher.watch().makeAsyncIterator()

            // The good flip's connection reads on a loop of its own, which the test holds.
            let goodLoops = MultiThreadedEventLoopGroup(numberOfThreads: 1)
            let goodConnection = try await AppFlipConnection.connect(to: daemon.socketPath, client: "good-flip", eventLoopGroup: goodLoops)
            let goodFlip = Task {
                await (try Self.runner(state: Self.good)).run(
                    connection: goodConnection,
                    google: google,
                    events: nil,
                    httpClient: nil,
                    logger: FlipRunnerTests.noLogs
                )
            }
            var partnerReached = reached.makeAsyncIterator()
            _ = await partnerReached.next()
            // The good flip's link is sent and at the partner app: hold its loop, so that the daemon's reply
            // waits unread while its result is delivered and the other flip is judged.
            let (held, holding) = AsyncStream.makeStream(of: Void.self)
            let unhold = DispatchSemaphore(value: 0)
            defer { unhold.signal() }
            goodLoops.next().execute {
                holding.yield()
                unhold.wait()
            }
            var loopHeld = held.makeAsyncIterator()
            _ = await loopHeld.next()
            releasing.yield()
            while let event = await events.next(), !(event.hop == 1 && event.url.hasSuffix("&state=flipB%2B1")) {}
            #expect(google.received.count == 1)

            let other = try await daemon.connect()
            let mangledReport = await (try Self.runner(state: Self.mangled))
                .run(connection: other, google: google, events: nil, httpClient: nil, logger: FlipRunnerTests.noLogs)
            unhold.signal()
            let goodReport = try await goodFlip.value

            #expect(mangledReport.exitStatus == 2)
            #expect(mangledReport.result == nil)
            #expect(mangledReport.steps.map(\.status) == [.ok, .ok, .ok, .failed, .skipped])
            #expect(
                mangledReport.failure
                    == "step 4 (result link delivered) failed: no result for this flip: the app opened "
                    + FlipRunnerTests.redirect.string + "?code=[redacted:6B]&state=flipA+1, whose state matched no flip in flight, "
                    + "so the Google app would not take it: state is not byte-for-byte the one sent (it holds a literal '+', which "
                    + "decodes as a space: encode '+' as %2B)"
            )
            #expect(goodReport.exitStatus == 0, "\(goodReport.failure ?? "")")
            #expect(goodReport.result == "code")
            #expect(goodReport.steps.first { $0.step == 3 }?.detail == "6 bytes, sha256:\(Fingerprint.of("code-B"))")
            #expect(google.received.isEmpty)

            for connection in [other, goodConnection, watcher, googleConnection, partner] { await connection.close() }
            try await goodLoops.shutdownGracefully()
        }
    }
}
