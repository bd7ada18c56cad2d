/// Decodes the two messages on a live app's hot path, the `activity` push and the reply to its `answer`,
/// without `JSONDecoder`; anything else returns `nil` and takes the `JSONDecoder` path, the reference. The
/// protocol tests check that the two agree whenever this one answers.
enum ServerMessageFastPath {
    static func decode(_ bytes: UnsafeRawBufferPointer) -> ServerMessage? {
        var scanner = FastJSONScanner(bytes: bytes)
        return scanner.serverMessage()
    }
}

extension FastJSONScanner {
    fileprivate mutating func serverMessage() -> ServerMessage? {
        var activity: Activity?
        var app: String?
        var handoff: UInt64?
        var push: String?
        var rule: String?
        var id: RequestID?
        var ok: Bool?
        var op: String?
        var answered: UInt64?
        var seen: Set<String> = []
        let parsed = object { key, parser in
            switch key {
            case "activity": activity = parser.activity()
            case "app": app = parser.string()
            case "handoff": handoff = parser.unsigned()
            case "push": push = parser.string()
            case "rule": rule = parser.string()
            case "id": id = parser.requestID()
            case "ok": ok = parser.bool()
            case "op": op = parser.string()
            case "result":
                var handoff: UInt64?
                guard parser.object({ key, parser in
                    guard key == "handoff", handoff == nil else { return false }
                    handoff = parser.unsigned()
                    return handoff != nil
                }) else { return false }
                answered = handoff
            default: return false
            }
            return seen.insert(key).inserted
        }
        guard parsed, atEnd else { return nil }
        if seen == ["activity", "app", "handoff", "push", "rule"], push == "activity", let activity, let app, let handoff, let rule {
            return .activity(ActivityPush(handoff: handoff, app: app, rule: rule, activity: activity))
        }
        if seen == ["id", "ok", "op", "result"], ok == true, op == "answer", let id, let answered {
            return .reply(Reply(id: id, result: .answer(AnswerResult(handoff: answered))))
        }
        return nil
    }
}
