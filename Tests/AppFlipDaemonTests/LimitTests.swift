import AppFlipClient
import AppFlipCore
import AppFlipDaemon
import AppFlipProtocol
import AppFlipTesting
import FoundationEssentials
import NIOCore
import Testing

/// The daemon's limits: connections, requests in flight per connection, URLs per handler, hops.
@Suite struct LimitTests {
    /// Over either connection limit the new connection gets one `too_many_connections` line and is closed;
    /// a connection that closes frees its slot. The tests run as one uid, so the per-uid limit is met first
    /// unless it equals the total.
    @Test(.timeLimit(.minutes(5)), arguments: [(total: 3, perUID: 2, named: "maxConnectionsPerUID"), (total: 2, perUID: 2, named: "maxConnections")])
    func aConnectionOverTheLimitIsToldWhyAndClosed(total: Int, perUID: Int, named: String) async throws {
        var configuration = DaemonConfiguration()
        configuration.maxConnections = total
        configuration.maxConnectionsPerUID = perUID
        try await withTestDaemon(configuration: configuration) { daemon in
            let first = try await daemon.connect()
            let second = try await daemon.connect()
            try await RawLineSession.with(socket: daemon.socketPath) { raw in
                let refusal = try await raw.next()
                guard case .reply(let reply) = refusal else {
                    Issue.record("expected a reply, got \(String(describing: refusal))")
                    return
                }
                #expect(reply.id == nil)
                #expect(reply.error?.code == .tooManyConnections)
                #expect(reply.error?.message.contains("(\(named))") == true)
                #expect(try await raw.next() == nil)
            }
            // The client library reports the daemon's reason, not a bare close.
            await #expect {
                _ = try await daemon.connect()
            } throws: { error in
                (error as? ErrorBody)?.code == .tooManyConnections
            }
            // Both admitted connections still serve; closing one lets the next one in.
            #expect(try await second.apps().isEmpty)
            await first.close()
            var admitted: AppFlipConnection?
            for _ in 0..<200 where admitted == nil {
                admitted = try? await daemon.connect()
                if admitted == nil { try await Task.sleep(for: .milliseconds(10)) }
            }
            #expect(try await admitted?.apps().isEmpty == true)
        }
    }

    /// A connection that never says `hello` is told why in one line and closed.
    @Test(.timeLimit(.minutes(5))) func aConnectionWithoutHelloIsToldWhyAndClosed() async throws {
        var configuration = DaemonConfiguration()
        configuration.helloTimeoutSeconds = 0.2
        configuration.idleTimeoutSeconds = 0
        try await withTestDaemon(configuration: configuration) { daemon in
            try await RawLineSession.with(socket: daemon.socketPath) { raw in
                guard case .reply(let reply) = try await raw.next() else {
                    Issue.record("expected a reply")
                    return
                }
                #expect(reply.id == nil)
                #expect(reply.error?.code == .helloTimeout)
                #expect(reply.error?.message.contains("0.2 seconds (helloTimeoutSeconds)") == true)
                #expect(try await raw.next() == nil)
            }
        }
    }

    /// A connection that says `hello` and then nothing is told why in one line and closed; a watcher is
    /// not idle.
    ///
    /// The idle clock starts at the connection, so a machine slow enough (sanitizers, tests in parallel)
    /// to take `idleTimeoutSeconds` before the daemon reads `hello` or `watch` sees that connection closed
    /// as idle first, which is right. Such an attempt proves nothing either way and is made again, at most
    /// five times; any other outcome is judged.
    @Test(.timeLimit(.minutes(5))) func anIdleConnectionIsToldWhyAndClosed() async throws {
        var configuration = DaemonConfiguration()
        configuration.idleTimeoutSeconds = 2
        try await withTestDaemon(configuration: configuration) { daemon in
            for _ in 0..<5 {
                let watcher: AppFlipConnection
                do {
                    watcher = try await daemon.connect()
                    _ = try await watcher.watch()
                } catch let error as ErrorBody where error.code == .idleTimeout {
                    continue
                }
                let judged = try await RawLineSession.with(socket: daemon.socketPath) { raw in
                    // The write fails if the daemon has already closed the connection; its reason is read all the same.
                    try? await raw.send(#"{"id":1,"op":"hello","version":1}"#)
                    guard case .reply(let hello) = try await raw.next() else {
                        Issue.record("expected the reply to hello")
                        return true
                    }
                    if hello.id == nil, hello.error?.code == .idleTimeout { return false }
                    #expect(hello.id == .number(1))
                    #expect(hello.error == nil)
                    guard case .reply(let reply) = try await raw.next() else {
                        Issue.record("expected a reply")
                        return true
                    }
                    #expect(reply.id == nil)
                    #expect(reply.error?.code == .idleTimeout)
                    #expect(reply.error?.message.contains("2 seconds (idleTimeoutSeconds)") == true)
                    #expect(try await raw.next() == nil)
                    return true
                }
                if judged {
                    #expect(try await watcher.apps().isEmpty, "the watcher still serves: it was not closed as idle")
                    await watcher.close()
                    return
                }
                await watcher.close()
            }
            Issue.record("five attempts in a row were closed as idle before the daemon read hello or watch")
        }
    }

    @Test func tooManyRequestsInFlightOnOneConnection() async throws {
        var configuration = DaemonConfiguration()
        configuration.maxInFlightPerConnection = 2
        try await withTestDaemon(configuration: configuration) { daemon in
            let app = try await daemon.connect()
            let (pushes, arrived) = AsyncStream.makeStream(of: ActivityPush.self)
            let release = AsyncStream.makeStream(of: Void.self)
            _ = try await app.register(
                registration("T.held", ["applinks:held.test"]),
                handler: AsyncLiveApp { push in
                    arrived.yield(push)
                    for await _ in release.stream { break }
                    return LiveAnswer(continue: true)
                }
            )
            let client = try await daemon.connect()
            let open = RequestBody.open(OpenRequest(activity: Activity(webpageURL: "https://held.test/"), options: .init(universalLinksOnly: true)))
            let first = client.send(open)
            let second = client.send(open)
            var iterator = pushes.makeAsyncIterator()
            _ = await iterator.next()
            _ = await iterator.next()
            let third = try await client.send(open).get()
            #expect(third.error?.code == .tooManyRequests)
            release.continuation.yield()
            release.continuation.yield()
            #expect(try await first.get().error == nil)
            #expect(try await second.get().error == nil)
        }
    }

    @Test func aHandlerMayOpenOnlySoManyURLs() async throws {
        var configuration = DaemonConfiguration()
        configuration.maxOpenedURLs = 2
        let apps = [
            TestApp(appID: "T.accept", domains: ["applinks:accept.test"], handler: .accept),
            TestApp(appID: "T.chatty", domains: ["applinks:chatty.test"], handler: .script("for n in 1 2 3; do echo https://accept.test/$n; done")),
            TestApp(appID: "T.enough", domains: ["applinks:enough.test"], handler: .script("for n in 1 2; do echo https://accept.test/$n; done")),
        ]
        try await withTestDaemon(configuration: configuration, apps: apps) { daemon in
            let atTheLimit = try await daemon.connect().open("https://enough.test/")
            #expect(atTheLimit.opened.map(\.status) == [.delivered, .delivered])
            let failed = try await daemon.connect().openError("https://chatty.test/")
            #expect(failed.code == .handlerFailed)
            #expect(failed.message.contains("more than 2 URLs"))
            #expect(failed.opened?.map(\.status) == [.delivered, .delivered])
        }
    }

    /// A declining `exec` handler's reason, its last stderr line, is kept to 200 characters: a line of 200 is
    /// whole, one of 201 loses its last character.
    @Test func aDeclineReasonIsKeptTo200Characters() async throws {
        let apps = [
            TestApp(appID: "T.fits", domains: ["applinks:fits.test"], handler: .script("printf 'a%.0s' $(seq 200) >&2; exit 1")),
            TestApp(appID: "T.long", domains: ["applinks:long.test"], handler: .script("printf 'a%.0s' $(seq 200) >&2; printf 'b\\n' >&2; exit 1")),
        ]
        try await withTestDaemon(apps: apps) { daemon in
            let client = try await daemon.connect()
            let fits = try await client.openError("https://fits.test/")
            #expect(fits.code == .declined)
            #expect(fits.reason == String(repeating: "a", count: 200))
            let long = try await client.openError("https://long.test/")
            #expect(long.code == .declined)
            #expect(long.reason == String(repeating: "a", count: 200))
        }
    }

    /// An app whose handler opens its own domain again would loop; the chain stops at `maxHops`, and the
    /// stop is visible in `watch`.
    @Test func aLoopStopsAtMaxHops() async throws {
        var configuration = DaemonConfiguration()
        configuration.maxHops = 2
        let apps = [TestApp(appID: "T.loop", domains: ["applinks:loop.test"], handler: .script("echo https://loop.test/again"))]
        try await withTestDaemon(configuration: configuration, apps: apps) { daemon in
            let watcher = try await daemon.connect()
            var events = try await watcher.watch().makeAsyncIterator()
            let result = try await daemon.connect().open("https://loop.test/")
            #expect(result.status == .handled)
            #expect(result.opened.map(\.status) == [.delivered])
            var outcomes: [Int: String] = [:]
            for _ in 0..<4 {
                guard let event = await events.next() else { break }
                outcomes[event.hop] = event.outcome
            }
            #expect(outcomes == [0: "handled", 1: "delivered", 2: "delivered", 3: "too_many_hops"])
        }
    }

    /// A live app's association document may be as large as Apple's 128 KB limit, as the daemon encodes it,
    /// and not a byte larger.
    @Test func anAssociationAtApplesLimitIsTakenAndOneByteMoreIsNot() async throws {
        var configuration = DaemonConfiguration()
        configuration.maxLineBytes = 256 << 10
        try await withTestDaemon(configuration: configuration) { daemon in
            let app = try await daemon.connect()
            func document(padding: Int) -> JSONValue {
                .object([
                    "applinks": .object(["details": .array([.object(["appIDs": .array([.string("T.big")]), "components": .array([everything])])])]),
                    "padding": .string(String(repeating: "a", count: padding)),
                ])
            }
            // The document's bytes grow one for one with the padding.
            let base = try JSONEncoder().encode(document(padding: 0)).count
            let limit = 128 * 1024
            let atTheLimit = document(padding: limit - base)
            #expect(try JSONEncoder().encode(atTheLimit).count == limit)
            let over = RegisterRequest(appID: "T.big", domains: ["applinks:big.test"], association: document(padding: limit - base + 1))
            let refused = try await app.send(.register(over)).get()
            #expect(refused.error?.code == .invalidAssociation)
            #expect(refused.error?.message.contains("\(limit + 1) bytes") == true)
            let taken = try await app.send(.register(RegisterRequest(appID: "T.big", domains: ["applinks:big.test"], association: atTheLimit))).get()
            #expect(taken.error == nil)
        }
    }

    /// A registration far over Apple's 128 KB association limit is refused by its size before it is
    /// parsed, even where `maxLineBytes` lets the line in; the connection keeps serving.
    @Test(.timeLimit(.minutes(5))) func aHugeRegistrationIsRefusedBeforeItIsParsed() async throws {
        var configuration = DaemonConfiguration()
        configuration.maxLineBytes = 16 << 20
        try await withTestDaemon(configuration: configuration) { daemon in
            try await RawLineSession.with(socket: daemon.socketPath) { raw in
                #expect(try await raw.exchange(#"{"id":1,"op":"hello","version":1}"#)?.error == nil)
                let components = String(repeating: #"{"/":"/p/*"},"#, count: (9 << 20) / 12)
                let association = #"{"applinks":{"details":[{"appIDs":["T.huge"],"components":["# + components + #"{"/":"/"}]}]}}"#
                let line = #"{"id":2,"op":"register","appID":"T.huge","domains":["applinks:huge.test"],"association":\#(association)}"#
                let refused = try await raw.exchange(line)
                #expect(refused?.id == .number(2))
                #expect(refused?.error?.code == .invalidAssociation)
                #expect(refused?.error?.message.contains("refused unread") == true)
                #expect(try await raw.exchange(#"{"id":3,"op":"apps"}"#)?.error == nil)
            }
        }
    }
}
