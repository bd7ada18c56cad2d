@testable import AppFlipProtocol
import AppFlipCore
import Testing

/// The hot-path decoder must never disagree with the `JSONDecoder` reference: whenever it returns a
/// request, the reference returns the same one; for anything else it steps aside.
@Suite struct RequestFastPathTests {
    static let handled = [
        #"{"id":1,"op":"open","activity":{"activityType":"NSUserActivityTypeBrowsingWeb","webpageURL":"https://a.test/x?y=1"},"options":{"universalLinksOnly":true}}"#,
        #" { "op" : "open" , "id" : "r-1" , "activity" : { "webpageURL" : "https://a.test/" , "activityType" : "t" } } "#,
        #"{"id":-42,"op":"open","activity":{"activityType":"t"},"options":{}}"#,
        #"{"id":9223372036854775807,"op":"open","activity":{"activityType":"t\"q\\\/\n\t","webpageURL":"https://é.test/ü"}}"#,
        #"{"id":0,"op":"answer","handoff":18446744073709551615,"continue":false}"#,
        #"{"continue":true,"handoff":3,"id":2,"op":"answer","open":[]}"#,
        #"{"id":2,"op":"answer","handoff":3,"continue":true,"open":[{"url":"https://g.test/?code=1","options":{"universalLinksOnly":true}},{"url":"https://h.test/"}]}"#,
    ]

    static let steppedAside = [
        #"{"id":1,"op":"hello","version":1}"#,
        #"{"id":1,"op":"open","activity":{"activityType":"t","userInfo":{"a":1}}}"#,
        #"{"id":1,"op":"open","activity":{"activityType":"t"},"extra":true}"#,
        #"{"id":1,"op":"open","activity":{"activityType":"t\u00e9"}}"#,
        #"{"id":1.0,"op":"open","activity":{"activityType":"t"}}"#,
        #"{"id":01,"op":"open","activity":{"activityType":"t"}}"#,
        #"{"id":1e2,"op":"open","activity":{"activityType":"t"}}"#,
        #"{"id":9223372036854775808,"op":"open","activity":{"activityType":"t"}}"#,
        #"{"id":1,"id":2,"op":"open","activity":{"activityType":"t"}}"#,
        #"{"id":1,"op":"open","activity":{"activityType":"t","webpageURL":null}}"#,
        #"{"id":1,"op":"open","activity":{"activityType":"t"},"options":null}"#,
        #"{"id":1,"op":"open","activity":{"activityType":"t"},"options":{"universalLinksOnly":"yes"}}"#,
        #"{"id":1,"op":"open"}"#,
        #"{"id":1,"op":"answer","handoff":-1,"continue":true}"#,
        #"{"id":1,"op":"answer","handoff":1,"continue":true,"open":[{"options":{}}]}"#,
        #"{"id":1,"op":"open","activity":{"activityType":"t"}} trailing"#,
        #"{"id":1,"op":"open","activity":{"activityType":"t"}"#,
        #"{"op":"open","activity":{"activityType":"t"}}"#,
        #"[1]"#,
        "",
        "{\"id\":1,\"op\":\"open\",\"activity\":{\"activityType\":\"a\tb\"}}",
    ]

    @Test(arguments: handled)
    func plainHotRequestsTakeTheFastPathAndAgreeWithTheReference(_ line: String) throws {
        let bytes = Array(line.utf8)
        let fast = bytes.withUnsafeBytes { RequestFastPath.decode($0) }
        let reference = try Request.decodeWithJSONDecoder(line: bytes).get()
        #expect(fast == reference)
    }

    @Test(arguments: steppedAside)
    func everythingElseGoesToTheReference(_ line: String) {
        let bytes = Array(line.utf8)
        #expect(bytes.withUnsafeBytes { RequestFastPath.decode($0) } == nil)
        #expect(Request.decode(line: bytes) == Request.decodeWithJSONDecoder(line: bytes))
    }

    @Test func invalidUTF8StepsAside() {
        let bytes = Array(#"{"id":1,"op":"open","activity":{"activityType":"t"#.utf8) + [0xC3, 0x28] + Array(#""}}"#.utf8)
        #expect(bytes.withUnsafeBytes { RequestFastPath.decode($0) } == nil)
        guard case .failure(let failure) = Request.decode(line: bytes) else {
            Issue.record("invalid UTF-8 was accepted")
            return
        }
        #expect(failure.error.code == .invalidUTF8)
    }

    @Test func theDaemonsBufferShapeReachesTheFastPath() {
        let line = Array(Self.handled[0].utf8)
        let viaRawBuffer = line.withUnsafeBytes { raw in raw.withContiguousStorageIfAvailable { _ in true } }
        #expect(viaRawBuffer == true)
    }
}

/// The same promise for the live app's side: pushes and answer replies.
@Suite struct ServerMessageFastPathTests {
    static let handled: [ServerMessage] = [
        .activity(ActivityPush(handoff: 7, app: "T.a", rule: "details[0].components[1]", activity: Activity(webpageURL: "https://a.test/x?code=1"))),
        .activity(ActivityPush(handoff: 0, app: "T.\"a\"", rule: "r", activity: Activity(activityType: "other", webpageURL: nil))),
        .reply(Reply(id: .number(12), result: .answer(AnswerResult(handoff: 3)))),
        .reply(Reply(id: .string("x"), result: .answer(AnswerResult(handoff: 3)))),
    ]

    static let steppedAside: [ServerMessage] = [
        .activity(ActivityPush(handoff: 7, app: "T.a", rule: "r", activity: Activity(webpageURL: "https://a.test/", userInfo: ["k": .string("v")]))),
        .reply(Reply(id: .number(1), op: .answer, error: ErrorBody(.unknownHandoff, "gone"))),
        .reply(Reply(id: .number(1), result: .open(OpenResult(status: .handled, app: "T.a")))),
        .reply(Reply(id: nil, op: nil, error: ErrorBody(.invalidJSON, "no"))),
        .event(HandoffEvent(time: 1, from: nil, client: nil, hop: 0, url: "https://a.test/", app: nil, rule: nil, outcome: "no_app", latencyMicros: 1)),
    ]

    @Test(arguments: handled)
    func hotMessagesTakeTheFastPath(_ message: ServerMessage) throws {
        let line = message.encodedLine()
        #expect(line.withUnsafeBytes { ServerMessageFastPath.decode($0) } == message)
        #expect(try ServerMessage.decode(line: line) == message)
    }

    @Test(arguments: steppedAside)
    func everythingElseGoesToTheReference(_ message: ServerMessage) throws {
        let line = message.encodedLine()
        #expect(line.withUnsafeBytes { ServerMessageFastPath.decode($0) } == nil)
        #expect(try ServerMessage.decode(line: line) == message)
    }
}
