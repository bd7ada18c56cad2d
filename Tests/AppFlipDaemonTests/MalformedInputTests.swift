import AppFlipClient
import AppFlipDaemon
import AppFlipProtocol
import AppFlipTesting
import NIOCore
import Testing

/// Every kind of bad input gets a structured error, and the daemon keeps serving.
@Suite struct MalformedInputTests {
    static let apps = [TestApp(appID: "T.accept", domains: ["applinks:accept.test"], handler: .accept)]

    @Test func badLinesGetStructuredErrorsAndTheConnectionStaysUsable() async throws {
        try await withTestDaemon(apps: Self.apps) { daemon in
            let client = try await daemon.connect()
            func error(_ line: String) async throws -> Reply { try await client.rawError(Array(line.utf8)) }

            #expect(try await error("not json").error?.code == .invalidJSON)
            #expect(try await error("[1,2]").error?.code == .notAnObject)
            #expect(try await error("\"a string\"").error?.code == .notAnObject)

            let unknown = try await error(#"{"id":"u1","op":"teleport"}"#)
            #expect(unknown.error?.code == .unknownOp)
            #expect(unknown.id == .string("u1"))

            let missingID = try await error(#"{"op":"apps"}"#)
            #expect(missingID.error?.code == .invalidRequest)
            #expect(missingID.error?.field == "id")

            let missingField = try await error(#"{"id":7,"op":"open"}"#)
            #expect(missingField.error?.code == .invalidRequest)
            #expect(missingField.error?.field == "activity")
            #expect(missingField.id == .number(7))
            #expect(missingField.op == .open)

            let mistyped = try await error(#"{"id":8,"op":"open","activity":{"activityType":"NSUserActivityTypeBrowsingWeb","webpageURL":42}}"#)
            #expect(mistyped.error?.code == .invalidRequest)
            #expect(mistyped.error?.field == "activity.webpageURL")

            let mistypedOption = try await error(#"{"id":9,"op":"open","activity":{"activityType":"x"},"options":{"universalLinksOnly":"yes"}}"#)
            #expect(mistypedOption.error?.field == "options.universalLinksOnly")

            let badID = try await error(#"{"id":{"nested":1},"op":"apps"}"#)
            #expect(badID.error?.code == .invalidRequest)

            let invalidUTF8 = try await client.rawError(
                Array(#"{"id":10,"op":"explain","url":"https://accept.test/"#.utf8) + [0xC3, 0x28] + Array(#""}"#.utf8)
            )
            #expect(invalidUTF8.error?.code == .invalidUTF8)

            // After all that, the same connection still works.
            #expect(try await client.open("https://accept.test/").status == .handled)
        }
    }

    @Test func requestsBeforeHelloAreRefused() async throws {
        try await withTestDaemon(apps: Self.apps) { daemon in
            try await RawLineSession.with(socket: daemon.socketPath) { raw in
                let refused = try #require(try await raw.exchange(#"{"id":1,"op":"apps"}"#))
                #expect(refused.error?.code == .helloRequired)
                #expect(refused.id == .number(1))
                #expect(try await raw.exchange(#"{"id":2,"op":"hello","version":1}"#)?.error == nil)
                #expect(try await raw.exchange(#"{"id":3,"op":"apps"}"#)?.error == nil)
            }
        }
    }

    @Test func aClientThatStopsWritingStillGetsEveryReply() async throws {
        let apps = [TestApp(appID: "T.slow", domains: ["applinks:slow.test"], handler: .script("sleep 0.3"))]
        try await withTestDaemon(apps: apps) { daemon in
            try await RawLineSession.with(socket: daemon.socketPath) { raw in
                try await raw.send(#"{"id":1,"op":"hello","version":1}"#)
                try await raw.send(
                    #"{"id":2,"op":"open","activity":{"activityType":"NSUserActivityTypeBrowsingWeb","webpageURL":"https://slow.test/"}}"#
                )
                raw.finishWriting()
                var replies: [Reply] = []
                while let message = try await raw.next() {
                    if case .reply(let reply) = message { replies.append(reply) }
                }
                #expect(replies.map(\.id) == [.number(1), .number(2)])
                #expect(replies.last?.error == nil)
            }
        }
    }

    @Test func anOverLongLineGetsAnErrorThenTheConnectionCloses() async throws {
        var configuration = DaemonConfiguration()
        configuration.maxLineBytes = 4096
        try await withTestDaemon(configuration: configuration, apps: Self.apps) { daemon in
            let client = try await daemon.connect()
            #expect(client.hello.maxLineBytes == 4096)
            let reply = try await client.rawError(Array(repeating: UInt8(ascii: "a"), count: 10_000))
            #expect(reply.error?.code == .lineTooLong)
            try await client.channel.closeFuture.get()
            // Other connections are unaffected.
            let other = try await daemon.connect()
            #expect(try await other.open("https://accept.test/").status == .handled)
        }
    }

    @Test func aLineExactlyAtTheLimitIsAccepted() async throws {
        var configuration = DaemonConfiguration()
        configuration.maxLineBytes = 1024
        try await withTestDaemon(configuration: configuration, apps: Self.apps) { daemon in
            let client = try await daemon.connect()
            let prefix = #"{"id":"x","op":"explain","url":"https://accept.test/"#
            let line = prefix + String(repeating: "a", count: 1024 - prefix.utf8.count - 2) + #""}"#
            #expect(line.utf8.count == 1024)
            let reply = try await client.send(.explain(ExplainRequest(url: "https://accept.test/"))).get()
            #expect(reply.error == nil)
            let atLimit = try await client.rawError(Array(line.utf8))
            #expect(atLimit.error == nil)
            #expect(atLimit.id == .string("x"))
        }
    }

    @Test func aDuplicateIDInFlightIsRefused() async throws {
        try await withTestDaemon { daemon in
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
            try await RawLineSession.with(socket: daemon.socketPath) { raw in
                _ = try await raw.exchange(#"{"id":0,"op":"hello","version":1}"#)
                let open = #"{"id":"same","op":"open","activity":{"activityType":"NSUserActivityTypeBrowsingWeb","webpageURL":"https://held.test/"}}"#
                try await raw.send(open)
                for await _ in pushes { break }
                let duplicate = try #require(try await raw.exchange(open))
                #expect(duplicate.error?.code == .duplicateID)
                #expect(duplicate.id == .string("same"))
                release.continuation.yield()
                let first = try #require(try await raw.next())
                guard case .reply(let reply) = first else { throw ClientError.unexpectedReply(nil) }
                #expect(reply.id == .string("same"))
                #expect(reply.error == nil)
            }
        }
    }
}
