import AppFlipCore
import Testing

@testable import AppFlipProtocol

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
        .event(
            HandoffEvent(time: 1, from: nil, client: nil, hop: 0, url: "https://a.test/", app: nil, rule: nil, outcome: "no_app", latencyMicros: 1)
        ),
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
