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
    private enum MessageField: Int {
        case activity, app, handoff, push, rule, id, ok, op, result

        static let activityPush = keys([.activity, .app, .handoff, .push, .rule])
        static let answerReply = keys([.id, .ok, .op, .result])

        private static func keys(_ fields: [MessageField]) -> SeenKeys {
            SeenKeys(rawValue: fields.reduce(0) { $0 | 1 << $1.rawValue })
        }
    }

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
        var seen: SeenKeys = []
        let parsed = object { key, parser in
            let field: MessageField
            switch key {
            case "activity":
                field = .activity
                activity = parser.activity()
            case "app":
                field = .app
                app = parser.string()
            case "handoff":
                field = .handoff
                handoff = parser.unsigned()
            case "push":
                field = .push
                push = parser.string()
            case "rule":
                field = .rule
                rule = parser.string()
            case "id":
                field = .id
                id = parser.plainRequestID()
            case "ok":
                field = .ok
                ok = parser.bool()
            case "op":
                field = .op
                op = parser.string()
            case "result":
                field = .result
                var handoff: UInt64?
                guard
                    parser.object({ key, parser in
                        guard key == "handoff", handoff == nil else { return false }
                        handoff = parser.unsigned()
                        return handoff != nil
                    })
                else { return false }
                answered = handoff
            default: return false
            }
            return seen.insert(bit: field.rawValue)
        }
        guard parsed, atEnd else { return nil }
        if seen == MessageField.activityPush, push == "activity", let activity, let app, let handoff, let rule {
            return .activity(ActivityPush(handoff: handoff, app: app, rule: rule, activity: activity))
        }
        if seen == MessageField.answerReply, ok == true, op == "answer", let id, let answered {
            return .reply(Reply(id: id, result: .answer(AnswerResult(handoff: answered))))
        }
        return nil
    }
}
