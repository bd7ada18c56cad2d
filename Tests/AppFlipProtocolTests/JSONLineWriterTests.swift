import AppFlipCore
import FoundationEssentials
import Testing

@testable import AppFlipProtocol

/// The hand-written writer must produce exactly what `JSONEncoder` produces for every hot message shape, so
/// that the documented examples and the `Codable` forms stay one format; every other message is
/// `JSONEncoder`'s own.
@Suite struct JSONLineWriterTests {
    static let peer = PeerInfo(uid: 1000, gid: 1000, pid: 4242)
    static let opened = [
        OpenedURL(
            url: "https://a.test/r?code=[redacted:3B]&state=x",
            universalLinksOnly: true,
            status: .delivered,
            app: "T.a",
            rule: "details[0].components[1]"
        ),
        OpenedURL(url: "https://b.test/", universalLinksOnly: false, status: .failed, error: ErrorBody(.noApp, "no app claims \"it\"\n\t\u{01}é")),
        OpenedURL(url: "https://c.test/", universalLinksOnly: true, status: .declined, app: "T.c", rule: "r", reason: "not signed in"),
    ]

    /// Written by hand.
    static let hotMessages: [ServerMessage] = [
        .reply(
            Reply(
                id: .string("s/1"),
                result: .open(OpenResult(status: .handled, app: "T.a", domain: "applinks:a.test", rule: "details[0].components[0]", opened: opened))
            )
        ),
        .reply(Reply(id: .number(-3), result: .open(OpenResult(status: .browser)))),
        .reply(Reply(id: .number(3), result: .answer(AnswerResult(handoff: 77)))),
        .reply(Reply(id: nil, result: .open(OpenResult(status: .handled, app: "T.a", domain: "applinks:a.test", rule: "r")))),
        .reply(Reply(id: .string(""), result: .answer(AnswerResult(handoff: 0)))),
        .reply(
            Reply(
                id: .number(7),
                op: .open,
                error: ErrorBody(.declined, "declined", field: "f", app: "T.a", rule: "r", opened: opened, reason: "why")
            )
        ),
        .reply(Reply(id: nil, op: .answer, error: ErrorBody(.unknownHandoff, "gone"))),
        .activity(
            ActivityPush(
                handoff: 9,
                app: "T.a",
                rule: "details[0].components[0]",
                activity: Activity(
                    webpageURL: "https://a.test/x?y=1",
                    userInfo: [
                        "z": .array([.number(1), .number(2.5), .number(-0.0), .number(1e16), .bool(true), .null]),
                        "a": .object(["k": .string("v\"\u{8}")]),
                    ]
                )
            )
        ),
        .activity(ActivityPush(handoff: 10, app: "T.a", rule: "r", activity: Activity(activityType: "other", webpageURL: nil))),
    ]

    /// Left to `JSONEncoder`.
    static let otherMessages: [ServerMessage] = [
        .reply(Reply(id: .number(1), result: .hello(HelloResult(version: 1, server: "appflipd", maxLineBytes: 65536, peer: peer)))),
        .reply(
            Reply(
                id: .number(1),
                result: .hello(HelloResult(version: 1, server: "appflipd", serverVersion: "0.1.0", maxLineBytes: 65536, peer: peer))
            )
        ),
        .reply(
            Reply(
                id: .number(2),
                result: .register(RegisterResult(appID: "T.a", domains: ["applinks:a.test", "applinks:*.b.test"], warnings: ["w"]))
            )
        ),
        .reply(
            Reply(
                id: .number(4),
                result: .explain(
                    ExplainResult(
                        url: "https://a.test/",
                        decision: .exclude,
                        app: "T.a",
                        rule: "r",
                        candidates: [
                            CandidateDecision(app: "T.a", domain: "applinks:a.test", outcome: "exclude", rule: "r", details: 0, component: 2),
                            CandidateDecision(
                                app: "T.b",
                                domain: "applinks:*.a.test",
                                outcome: "no_match",
                                rule: "details[0]",
                                details: nil,
                                component: nil
                            ),
                        ]
                    )
                )
            )
        ),
        .reply(
            Reply(
                id: .number(5),
                result: .apps(
                    AppsResult(apps: [
                        AppInfo(appID: "T.a", kind: .static, domains: ["applinks:a.test"], handler: "exec", source: "/etc/appflipd/apps.d/a.json"),
                        AppInfo(appID: "T.b", kind: .live, domains: [], handler: "live", peer: peer),
                    ])
                )
            )
        ),
        .reply(Reply(id: .number(6), result: .watch(WatchResult()))),
        .reply(Reply(id: nil, op: nil, error: ErrorBody(.invalidJSON, "the line is not JSON"))),
        .event(
            HandoffEvent(
                time: 1795331748.1695855,
                from: peer,
                client: "c",
                hop: 1,
                url: "https://a.test/",
                app: "T.a",
                rule: "r",
                outcome: "delivered",
                latencyMicros: 31
            )
        ),
        .event(
            HandoffEvent(
                time: 1_795_331_748,
                from: nil,
                client: nil,
                hop: 0,
                url: "https://a.test/",
                app: nil,
                rule: nil,
                outcome: "no_app",
                latencyMicros: 0
            )
        ),
    ]

    static let hotRequests: [Request] = [
        Request(id: .string("o"), .open(OpenRequest(activity: Activity(webpageURL: "https://a.test/"), options: .init(universalLinksOnly: true)))),
        Request(id: .number(5), .answer(AnswerRequest(handoff: 8, continue: false, open: [OpenURLRequest(url: "https://g.test/?code=1")]))),
        Request(id: .number(9), .answer(AnswerRequest(handoff: 18_446_744_073_709_551_615, continue: true, open: []))),
        Request(id: .number(10), .answer(AnswerRequest(handoff: 2, continue: false, reason: "client_id \"x\" refused"))),
    ]

    static let otherRequests: [Request] = [
        Request(id: .number(1), .hello(HelloRequest(client: "appflip"))),
        Request(id: .number(2), .hello(HelloRequest(version: 2))),
        Request(
            id: .number(3),
            .register(
                RegisterRequest(appID: "T.a", domains: ["applinks:a.test"], components: [.object(["/": .string("/a/*"), "exclude": .bool(true)])])
            )
        ),
        Request(id: .number(4), .register(RegisterRequest(appID: "T.a", domains: [], association: .object(["applinks": .object([:])])))),
        Request(id: .number(6), .explain(ExplainRequest(url: "https://a.test/"))),
        Request(id: .number(7), .apps),
        Request(id: .number(8), .watch),
    ]

    /// Handed to the writer for what it does not write itself: its output shows who wrote a line.
    static let prettyEncoder: JSONEncoder = {
        let encoder = JSONEncoder.protocolEncoder
        encoder.outputFormatting.insert(.prettyPrinted)
        return encoder
    }()

    static func compact(_ value: some Encodable) throws -> String {
        String(decoding: try JSONEncoder.protocolEncoder.encode(value), as: UTF8.self)
    }

    @Test(arguments: hotMessages)
    func writesHotMessagesByHandAsJSONEncoderDoes(_ message: ServerMessage) throws {
        var writer = JSONLineWriter()
        writer.write(message, otherwiseUsing: Self.prettyEncoder)
        #expect(String(decoding: writer.bytes, as: UTF8.self) == (try Self.compact(message)))
        #expect(try ServerMessage.decode(line: message.encodedLine()) == message)
    }

    @Test(arguments: hotRequests)
    func writesHotRequestsByHandAsJSONEncoderDoes(_ request: Request) throws {
        var writer = JSONLineWriter()
        writer.write(request, otherwiseUsing: Self.prettyEncoder)
        #expect(String(decoding: writer.bytes, as: UTF8.self) == (try Self.compact(request)))
        #expect(try Request.decode(line: request.encodedLine()).get() == request)
    }

    @Test(arguments: otherMessages)
    func leavesOtherMessagesToJSONEncoder(_ message: ServerMessage) throws {
        var writer = JSONLineWriter()
        writer.write(message, otherwiseUsing: Self.prettyEncoder)
        #expect(Array(writer.bytes) == Array(try Self.prettyEncoder.encode(message)))
        #expect(String(decoding: message.encodedLine(), as: UTF8.self) == (try Self.compact(message)))
        #expect(try ServerMessage.decode(line: message.encodedLine()) == message)
    }

    @Test(arguments: otherRequests)
    func leavesOtherRequestsToJSONEncoder(_ request: Request) throws {
        var writer = JSONLineWriter()
        writer.write(request, otherwiseUsing: Self.prettyEncoder)
        #expect(Array(writer.bytes) == Array(try Self.prettyEncoder.encode(request)))
        #expect(String(decoding: request.encodedLine(), as: UTF8.self) == (try Self.compact(request)))
        #expect(try Request.decode(line: request.encodedLine()).get() == request)
    }

    /// The hand-written replies spell `op` as a constant, so a reply whose `op` was changed to disagree with
    /// its result is left to `JSONEncoder`, which writes the `op` it holds; one that agrees is written by hand.
    @Test(arguments: [
        (ReplyResult.open(OpenResult(status: .browser)), Op.answer),
        (ReplyResult.answer(AnswerResult(handoff: 4)), Op.open),
    ])
    func aReplyWhoseOpDisagreesWithItsResultIsLeftToJSONEncoder(result: ReplyResult, op: Op) throws {
        var reply = Reply(id: .number(1), result: result)
        var writer = JSONLineWriter()
        writer.write(.reply(reply), otherwiseUsing: Self.prettyEncoder)
        #expect(String(decoding: writer.bytes, as: UTF8.self) == (try Self.compact(ServerMessage.reply(reply))))
        reply.op = op
        var disagreeing = JSONLineWriter()
        disagreeing.write(.reply(reply), otherwiseUsing: Self.prettyEncoder)
        #expect(Array(disagreeing.bytes) == Array(try Self.prettyEncoder.encode(ServerMessage.reply(reply))))
        #expect(String(decoding: disagreeing.bytes, as: UTF8.self).contains("\"op\" : \"\(op.rawValue)\""))
    }

    /// The writer's storage starts at 256 bytes and grows: a line of any length, after short ones and
    /// before them again, is the encoder's, escapes included, and each line starts clean.
    @Test func linesLongerThanTheStorageGrowItAndShortOnesFollow() throws {
        var encoder = LineEncoder()
        let short = ServerMessage.reply(Reply(id: .number(1), result: .answer(AnswerResult(handoff: 2))))
        for length in [0, 7, 8, 9, 255, 256, 257, 4_099, 100_000] {
            let url = "https://a.test/" + String(repeating: "x", count: length)
            let escaped = String(repeating: "\"\\\n\u{1}é", count: length / 5)
            let long = ServerMessage.activity(
                ActivityPush(handoff: UInt64(length), app: escaped, rule: "r", activity: Activity(webpageURL: url))
            )
            for message in [short, long, short] {
                var line: [UInt8] = []
                encoder.withLine(of: message) { line = Array($0) }
                #expect(String(decoding: line, as: UTF8.self) == (try Self.compact(message)) + "\n")
            }
        }
    }

    @Test func aLineEncoderWritesEachMessageAsOneLine() throws {
        var encoder = LineEncoder()
        for message in Self.hotMessages + Self.otherMessages {
            var line: [UInt8] = []
            encoder.withLine(of: message) { line = Array($0) }
            #expect(line == message.encodedLine() + [UInt8(ascii: "\n")])
        }
    }
}
