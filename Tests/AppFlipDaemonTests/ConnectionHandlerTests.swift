import AppFlipProtocol
import Logging
import NIOCore
import NIOEmbedded
import Testing

@testable import AppFlipDaemon

/// The connection handler on an `EmbeddedChannel`: framing, `hello`, ids, one reply per request and the
/// write batching, without a socket.
@Suite struct ConnectionHandlerTests {
    let channel = EmbeddedChannel()
    /// `https://held.test/…` goes to an app whose handler answers only when the test says.
    let held = HeldHandler()

    init() throws {
        try self.init { _ in }
    }

    /// A handler with `maxLineBytes` 256 and whatever else `configure` sets, for a peer of unknown
    /// credentials unless `peer` says otherwise.
    init(peer: PeerInfo? = nil, _ configure: (inout DaemonConfiguration) -> Void) throws {
        var configuration = DaemonConfiguration()
        configuration.maxLineBytes = 256
        configure(&configuration)
        let association = Array(#"{"applinks":{"details":[{"appIDs":["T.held"],"components":[{"/":"*"}]}]}}"#.utf8)
        let (route, _) = try AppRouteBuilder.route(appID: "T.held", domains: ["applinks:held.test"], associationJSON: association, priority: 0)
        let app = RegisteredApp(
            appID: "T.held",
            route: route,
            domains: ["applinks:held.test"],
            claims: [],
            handler: held,
            origin: .configured(file: "held.json")
        )
        let daemon = DaemonContext(
            configuration: configuration,
            staticApps: [app],
            logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })
        )
        try channel.pipeline.syncOperations.addHandler(ConnectionHandler(daemon: daemon, peer: peer, channel: channel))
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
    }

    /// Every line written so far, one string each. (Closing writes an empty buffer, to close behind
    /// every earlier write.)
    func lines() throws -> [String] {
        var lines: [String] = []
        while var buffer = try channel.readOutbound(as: ByteBuffer.self) {
            guard buffer.readableBytes > 0 else { continue }
            let text = buffer.readString(length: buffer.readableBytes) ?? ""
            #expect(text.hasSuffix("\n"), "a write ends with a whole line")
            lines += text.split(separator: "\n").map(String.init)
        }
        return lines
    }

    /// Says hello and opens `https://held.test/x` as request 2, which waits for ``held``; only the hello is
    /// answered.
    func helloAndAHeldOpen() throws {
        try channel.writeInbound(
            ByteBuffer(
                string: Self.hello
                    + #"{"id":2,"op":"open","activity":{"activityType":"NSUserActivityTypeBrowsingWeb","webpageURL":"https://held.test/x"}}"# + "\n"
            )
        )
        #expect(try lines().count == 1)
    }

    /// Nothing is written in `channelReadComplete`: the replies leave at the end of their `channelRead`. A
    /// write that failed in `channelReadComplete` (the peer gone) closed the channel inside NIO's
    /// end-of-file handling, and a debug daemon died on NIO's `isRegisteredFully` assertion (issue 12, 1).
    @Test func theRepliesLeaveAtTheEndOfTheirReadNotAtReadComplete() throws {
        let hello = ByteBuffer(string: #"{"id":1,"op":"hello","version":1}"# + "\n" + #"{"id":2,"op":"apps"}"# + "\n")
        channel.pipeline.syncOperations.fireChannelRead(NIOAny(hello))
        let written = try lines()
        #expect(written.count == 2)
        channel.pipeline.syncOperations.fireChannelReadComplete()
        #expect(try channel.readOutbound(as: ByteBuffer.self) == nil)
    }

    @Test func theRepliesToOneReadLeaveInOneWrite() throws {
        try channel.writeInbound(ByteBuffer(string: #"{"id":1,"op":"hello","version":1}"# + "\n" + #"{"id":2,"op":"apps"}"# + "\n"))
        let write = try #require(try channel.readOutbound(as: ByteBuffer.self))
        #expect(try channel.readOutbound(as: ByteBuffer.self) == nil)
        let replies = String(buffer: write).split(separator: "\n")
        #expect(replies.count == 2)
        #expect(replies[0].hasPrefix(#"{"id":1,"ok":true"#))
        #expect(replies[1].hasPrefix(#"{"id":2,"ok":true"#))
    }

    @Test func aLineSplitAcrossReadsIsOneRequest() throws {
        try channel.writeInbound(ByteBuffer(string: #"{"id":1,"op":"hel"#))
        #expect(try lines().isEmpty)
        try channel.writeInbound(ByteBuffer(string: #"lo","version":1}"# + "\n"))
        #expect(try lines().map { $0.hasPrefix(#"{"id":1,"ok":true"#) } == [true])
    }

    @Test func everyRequestBeforeHelloIsRefused() throws {
        try channel.writeInbound(ByteBuffer(string: #"{"id":7,"op":"apps"}"# + "\n"))
        let reply = try #require(try lines().first)
        #expect(reply.contains(#""id":7"#) && reply.contains(#""code":"hello_required""#))
    }

    @Test func malformedLinesGetOneErrorEachAndTheConnectionStays() throws {
        try channel.writeInbound(ByteBuffer(string: "not json\n{\"id\":1}\n" + #"{"id":2,"op":"hello","version":1}"# + "\n"))
        let replies = try lines()
        #expect(replies.count == 3)
        #expect(replies[2].hasPrefix(#"{"id":2,"ok":true"#))
        #expect(channel.isActive)
    }

    @Test func aLineOverTheLimitIsAnsweredThenTheConnectionCloses() throws {
        try channel.writeInbound(ByteBuffer(string: String(repeating: "x", count: 300)))
        let replies = try lines()
        #expect(replies.count == 1)
        #expect(replies.first?.contains(#""code":"line_too_long""#) == true)
        channel.embeddedEventLoop.run()
        #expect(!channel.isActive)
    }

    @Test func aLineOverTheLimitStillLetsTheRequestsInFlightBeAnswered() throws {
        try helloAndAHeldOpen()
        try channel.writeInbound(ByteBuffer(string: String(repeating: "x", count: 300) + "\n" + #"{"id":3,"op":"apps"}"# + "\n"))
        let refusal = try lines()
        #expect(refusal.count == 1)
        #expect(refusal.first?.contains(#""code":"line_too_long""#) == true)
        channel.embeddedEventLoop.run()
        #expect(channel.isActive, "closed with a request in flight")
        held.answer(true)
        channel.embeddedEventLoop.run()
        let replies = try lines()
        #expect(replies.count == 1, "the open's reply and nothing for the line after the long one")
        #expect(replies.first?.hasPrefix(#"{"id":2,"ok":true"#) == true)
        #expect(!channel.isActive)
    }

    /// A handler's first answer concludes the handoff; later ones change nothing, and say so.
    @Test func theFirstAnswerCountsAndALaterOneIsIgnored() throws {
        try helloAndAHeldOpen()
        #expect(held.answer(false))
        #expect(!held.answer(true))
        #expect(!held.fail(ErrorBody(.timeout, "too late")))
        channel.embeddedEventLoop.run()
        let replies = try lines()
        #expect(replies.count == 1)
        #expect(replies.first?.contains(#""code":"declined""#) == true)
    }

    /// An error that is not an `ErrorBody` is reported as `handler_failed`, naming the app.
    @Test func aHandlersOwnErrorIsHandlerFailed() throws {
        struct Broken: Error {}
        try helloAndAHeldOpen()
        #expect(held.fail(Broken()))
        channel.embeddedEventLoop.run()
        let replies = try lines()
        #expect(replies.count == 1)
        #expect(replies.first?.contains(#""code":"handler_failed""#) == true)
        #expect(replies.first?.contains("T.held's handler failed") == true)
    }

    /// The stop writes what the connection holds before it closes: here the acknowledgement of a live app's
    /// `answer`, which waits for its timer while the handoff it answered is still delivering a URL.
    @Test func theStopWritesAHeldAcknowledgementThenCloses() throws {
        // A live app needs a uid.
        let live = try ConnectionHandlerTests(peer: PeerInfo(uid: 1000, gid: 1000, pid: 1)) { _ in }
        let channel = live.channel
        func lines() throws -> [String] { try live.lines() }
        try channel.writeInbound(
            ByteBuffer(
                string: Self.hello
                    + #"{"id":2,"op":"register","appID":"T.live","domains":["applinks:live.test"],"components":[{"/":"*"}]}"# + "\n"
                    + #"{"id":3,"op":"open","activity":{"activityType":"NSUserActivityTypeBrowsingWeb","webpageURL":"https://live.test/"}}"# + "\n"
            )
        )
        channel.embeddedEventLoop.run()
        let pushed = try lines()
        #expect(pushed.count == 3, "hello, register and the push: \(pushed)")
        #expect(pushed.last?.contains(#""handoff":1"#) == true)
        // The URL it opens goes to `held`, which does not answer: the `open` stays in flight.
        try channel.writeInbound(
            ByteBuffer(string: #"{"id":4,"op":"answer","handoff":1,"continue":true,"open":[{"url":"https://held.test/x"}]}"# + "\n")
        )
        #expect(try lines().isEmpty, "the acknowledgement waits for its timer")
        channel.pipeline.fireUserInboundEventTriggered(DaemonStopping())
        let written = try lines()
        #expect(written.count == 1)
        #expect(written.first?.hasPrefix(#"{"id":4,"ok":true,"op":"answer""#) == true)
        #expect(!channel.isActive)
    }

    @Test func aHalfClosedPeerGetsItsLastUnterminatedLineAnswered() throws {
        try channel.writeInbound(ByteBuffer(string: #"{"id":1,"op":"hello","version":1}"#))
        channel.pipeline.fireUserInboundEventTriggered(ChannelEvent.inputClosed)
        #expect(try lines().map { $0.hasPrefix(#"{"id":1,"ok":true"#) } == [true])
        channel.embeddedEventLoop.run()
        #expect(!channel.isActive)
    }

    // The timeouts, on the embedded loop's clock: the defaults are 10 s for hello and 300 s idle.

    static let hello = #"{"id":1,"op":"hello","version":1}"# + "\n"

    func advance(seconds: Int64) {
        channel.embeddedEventLoop.advanceTime(by: .seconds(seconds))
    }

    @Test func aConnectionWithoutHelloIsToldAndClosedAtTheHelloTimeout() throws {
        // A line that is not hello, and half of another, do not stop the clock.
        try channel.writeInbound(ByteBuffer(string: #"{"id":7,"op":"apps"}"# + "\n" + #"{"id":8,"op""#))
        #expect(try lines().count == 1)
        advance(seconds: 9)
        #expect(channel.isActive)
        #expect(try lines().isEmpty)
        advance(seconds: 1)
        let replies = try lines()
        #expect(replies.count == 1)
        #expect(replies.first?.contains(#""code":"hello_timeout""#) == true)
        #expect(replies.first?.contains(#""id":null"#) == true)
        #expect(replies.first?.contains("10 seconds (helloTimeoutSeconds)") == true)
        channel.embeddedEventLoop.run()
        #expect(!channel.isActive)
    }

    @Test func helloInTimeStopsTheHelloTimeout() throws {
        try channel.writeInbound(ByteBuffer(string: Self.hello))
        #expect(try lines().count == 1)
        advance(seconds: 60)
        #expect(try lines().isEmpty)
        #expect(channel.isActive)
    }

    @Test func anIdleConnectionIsToldAndClosedAtTheIdleTimeout() throws {
        try channel.writeInbound(ByteBuffer(string: Self.hello))
        #expect(try lines().count == 1)
        advance(seconds: 200)
        // A request moves the clock.
        try channel.writeInbound(ByteBuffer(string: #"{"id":2,"op":"apps"}"# + "\n"))
        #expect(try lines().count == 1)
        advance(seconds: 299)
        #expect(channel.isActive)
        #expect(try lines().isEmpty)
        advance(seconds: 1)
        let replies = try lines()
        #expect(replies.count == 1)
        #expect(replies.first?.contains(#""code":"idle_timeout""#) == true)
        #expect(replies.first?.contains(#""id":null"#) == true)
        #expect(replies.first?.contains("300 seconds (idleTimeoutSeconds)") == true)
        channel.embeddedEventLoop.run()
        #expect(!channel.isActive)
    }

    /// Bytes that never make a whole line are not requests: a connection trickling half a line is idle.
    @Test func aHalfLineDoesNotKeepAConnectionOpen() throws {
        try channel.writeInbound(ByteBuffer(string: Self.hello))
        #expect(try lines().count == 1)
        for _ in 0..<3 {
            advance(seconds: 100)
            try channel.writeInbound(ByteBuffer(string: #"{"#))
        }
        channel.embeddedEventLoop.run()
        #expect(try lines().map { $0.contains(#""code":"idle_timeout""#) } == [true])
        #expect(!channel.isActive)
    }

    @Test func aRequestInFlightAndAWatcherAreNotIdle() throws {
        try helloAndAHeldOpen()
        advance(seconds: 1000)
        #expect(channel.isActive, "closed with a request in flight")
        held.answer(true)
        channel.embeddedEventLoop.run()
        #expect(try lines().count == 1)
        // Idle from the reply on.
        advance(seconds: 299)
        #expect(channel.isActive)
        advance(seconds: 1)
        #expect(try lines().map { $0.contains(#""code":"idle_timeout""#) } == [true])

        let watcher = try ConnectionHandlerTests()
        try watcher.channel.writeInbound(ByteBuffer(string: Self.hello + #"{"id":2,"op":"watch"}"# + "\n"))
        #expect(try watcher.lines().count == 2)
        watcher.advance(seconds: 3600)
        #expect(try watcher.lines().isEmpty)
        #expect(watcher.channel.isActive)
    }

    @Test func anIdleTimeoutOfZeroIsOff() throws {
        let handler = try ConnectionHandlerTests { $0.idleTimeoutSeconds = 0 }
        try handler.channel.writeInbound(ByteBuffer(string: Self.hello))
        #expect(try handler.lines().count == 1)
        handler.advance(seconds: 86400)
        #expect(try handler.lines().isEmpty)
        #expect(handler.channel.isActive)
    }
}
