import AppFlipClient
import AppFlipDaemon
import AppFlipProtocol
import AppFlipTestSupport
import AppFlipTesting
import Glibc
import NIOConcurrencyHelpers
import NIOCore
import Testing

/// Many clients, pipelined requests, replies out of order, and the watch stream.
@Suite struct ConcurrencyTests {
    static let apps = [TestApp(appID: "T.accept", domains: ["applinks:accept.test"], handler: .accept)]

    /// A live app holds every activity until it has them all, then answers in reverse order: the replies
    /// come back out of order, and each id still gets exactly one reply, with its own outcome.
    @Test func pipelinedRequestsGetTheirOwnRepliesOutOfOrder() async throws {
        let count = 64
        try await withTestDaemon { daemon in
            let app = try await daemon.connect()
            let held = NIOLockedValueBox<[(ActivityPush, EventLoopPromise<LiveAnswer>)]>([])
            struct HoldingApp: LiveAppHandling {
                let held: NIOLockedValueBox<[(ActivityPush, EventLoopPromise<LiveAnswer>)]>
                let count: Int
                func handle(_ activity: ActivityPush, eventLoop: any EventLoop) -> EventLoopFuture<LiveAnswer> {
                    let promise = eventLoop.makePromise(of: LiveAnswer.self)
                    let all: [(ActivityPush, EventLoopPromise<LiveAnswer>)] = held.withLockedValue { held in
                        held.append((activity, promise))
                        return held.count == count ? held : []
                    }
                    for (push, waiting) in all.reversed() {
                        // Paths ending in an odd number are declined, so that every reply is distinguishable.
                        let number = Int(push.activity.webpageURL!.split(separator: "/").last!)!
                        waiting.succeed(LiveAnswer(continue: number % 2 == 0))
                    }
                    return promise.futureResult
                }
            }
            _ = try await app.register(registration("T.holding", ["applinks:holding.test"]), handler: HoldingApp(held: held, count: count))

            let client = try await daemon.connect()
            let order = NIOLockedValueBox<[RequestID]>([])
            let futures = (0..<count).map { number in
                let request = Request(
                    id: .string("r\(number)"),
                    .open(OpenRequest(activity: Activity(webpageURL: "https://holding.test/\(number)"), options: .init(universalLinksOnly: true)))
                )
                let future = client.send(request)
                future.whenSuccess { reply in order.withLockedValue { $0.append(reply.id!) } }
                return future
            }
            for (number, future) in futures.enumerated() {
                let reply = try await future.get()
                #expect(reply.id == .string("r\(number)"))
                #expect(reply.error?.code == (number % 2 == 0 ? nil : .declined))
            }
            let arrival = order.withLockedValue { $0 }
            #expect(arrival.count == count)
            #expect(Set(arrival) == Set((0..<count).map { RequestID.string("r\($0)") }))
            // The app answered newest first, so the first reply to arrive is not the first request's.
            #expect(arrival.first != .string("r0"))
        }
    }

    /// 32 clients pipelining 50 opens each, half to a static app, half to one live app. Every request gets
    /// its reply; every static handoff is handled by the static app; a live handoff is handled by the live
    /// app, or fails at once with the documented backpressure (protocol.md, "Backpressure") when a loaded
    /// machine lets the app fall 64 KiB or `maxPendingPerLiveApp` handoffs behind, and nothing else. Live handoffs do succeed: each success is
    /// one push the app answered, and a run where every live handoff failed is a failure. The live-app
    /// timeout is far longer than the test, so that a loaded machine cannot turn a slow answer into a
    /// `timeout` or close the app for falling behind: backpressure is the only way a live handoff may fail.
    @Test(.timeLimit(.minutes(5))) func manyClientsAtOnce() async throws {
        try await Self.clientsAtOnce(32)
    }

    /// The same with 192 clients, enough to reach `maxPendingPerLiveApp`.
    @Test(.slow, .timeLimit(.minutes(5))) func manyMoreClientsAtOnce() async throws {
        try await Self.clientsAtOnce(192)
    }

    /// `clients` clients pipelining 50 opens each, and every reply held to the rules above.
    static func clientsAtOnce(_ clients: Int) async throws {
        var configuration = DaemonConfiguration()
        configuration.liveAppTimeoutSeconds = 3600
        try await withTestDaemon(configuration: configuration, apps: Self.apps) { daemon in
            let app = try await daemon.connect()
            let pushes = NIOLockedValueBox(0)
            let live = ImmediateLiveApp { _ in
                pushes.withLockedValue { $0 += 1 }
                return LiveAnswer(continue: true)
            }
            _ = try await app.register(registration("T.live", ["applinks:live.test"]), handler: live)
            let replies = try await withThrowingTaskGroup(of: [(number: Int, reply: Reply)].self) { group in
                for clientNumber in 0..<clients {
                    group.addTask {
                        let client = try await daemon.connect(client: "client-\(clientNumber)")
                        let replies = try await EventLoopFuture.whenAllSucceed(
                            (0..<50).map { number in
                                client.send(
                                    .open(
                                        OpenRequest(
                                            activity: Activity(
                                                webpageURL: number % 2 == 0 ? "https://accept.test/\(number)" : "https://live.test/\(number)"
                                            ),
                                            options: .init(universalLinksOnly: true)
                                        )
                                    )
                                )
                            },
                            on: client.channel.eventLoop
                        ).get()
                        await client.close()
                        return replies.enumerated().map { ($0.offset, $0.element) }
                    }
                }
                return try await group.reduce(into: []) { $0 += $1 }
            }
            #expect(replies.count == clients * 50)
            let toStatic = replies.filter { $0.number % 2 == 0 }.map(\.reply)
            #expect(toStatic.count == clients * 25)
            #expect(toStatic.allSatisfy { Self.handled($0, by: "T.accept") }, "\(toStatic.filter { !Self.handled($0, by: "T.accept") }.prefix(3))")
            let toLive = replies.filter { $0.number % 2 == 1 }.map(\.reply)
            let handledLive = toLive.filter { Self.handled($0, by: "T.live") }
            let failedLive = toLive.filter { !Self.handled($0, by: "T.live") }
            #expect(!handledLive.isEmpty, "every live handoff failed: \(failedLive.prefix(3))")
            #expect(handledLive.count == pushes.withLockedValue { $0 }, "each handled live handoff is one push the app answered")
            // Backpressure is either bound (protocol.md, "Backpressure"): the app's connection not writable, or
            // `maxPendingPerLiveApp` handoffs already waiting, which 192 clients reach.
            let otherwiseFailed = failedLive.filter { reply in
                guard reply.error?.code == .handlerFailed, let message = reply.error?.message else { return true }
                return !message.contains("is not reading its pushes") && !message.contains("(maxPendingPerLiveApp)")
            }
            #expect(otherwiseFailed.isEmpty, "\(otherwiseFailed.count) live handoffs failed otherwise: \(otherwiseFailed.prefix(3))")
        }
    }

    /// The reply says `handled` by `appID`.
    static func handled(_ reply: Reply, by appID: String) -> Bool {
        guard case .success(.open(let result)) = reply.outcome else { return false }
        return result.status == .handled && result.app == appID
    }

    @Test func watchStreamsEveryHandoffRedacted() async throws {
        try await withTestDaemon(apps: Self.apps) { daemon in
            let watcher = try await daemon.connect(client: "watcher")
            var events = try await watcher.watch().makeAsyncIterator()
            let client = try await daemon.connect(client: "sender")
            _ = try await client.open("https://accept.test/x?code=topsecret&state=1")
            _ = try? await client.open("https://nobody.test/")
            let first = try #require(await events.next())
            #expect(first.app == "T.accept")
            #expect(first.outcome == "handled")
            #expect(first.url == "https://accept.test/x?code=[redacted:9B]&state=1")
            #expect(first.client == "sender")
            #expect(first.from?.pid == getpid())
            #expect(first.hop == 0)
            #expect(first.latencyMicros >= 0)
            let second = try #require(await events.next())
            #expect(second.outcome == "no_app")
            #expect(second.app == nil)
        }
    }
}
