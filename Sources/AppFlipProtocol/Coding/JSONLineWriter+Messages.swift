import AppFlipCore
import FoundationEssentials

/// The hot messages written by ``JSONLineWriter``, keys in sorted order, `nil` fields left out: the same
/// bytes `JSONEncoder.protocolEncoder` produces for the type's `Codable` form. Hot are the `activity` push,
/// the `open` and `answer` requests and their replies, failures included; the rest is left to `JSONEncoder`.
/// A run of members that is always the same (`"ok":true,"op":"open","result":`) is one ``constant(_:)``.
extension JSONLineWriter {
    /// Writes `message`: by hand when it is hot, with `encoder` otherwise.
    mutating func write(_ message: ServerMessage, otherwiseUsing encoder: JSONEncoder) {
        switch message {
        case .activity(let push):
            beginObject()
            key("activity")
            write(push.activity)
            field("app", push.app)
            key("handoff")
            integer(push.handoff)
            constant(#""push":"activity""#)
            field("rule", push.rule)
            endObject()
        case .reply(let reply):
            switch reply.outcome {
            case .success(.open(let open)) where reply.op == .open:
                beginObject()
                id(reply.id)
                constant(#""ok":true,"op":"open","result":"#)
                write(open)
                endObject()
            case .success(.answer(let answer)) where reply.op == .answer:
                beginObject()
                id(reply.id)
                constant(#""ok":true,"op":"answer","result":{"handoff":"#)
                integer(answer.handoff)
                endObject()
                endObject()
            case .failure where reply.op == .open || reply.op == .answer:
                beginReply(reply)
                endObject()
            case .success, .failure:
                append(encoded: message, using: encoder)
            }
        case .event, .intent:
            append(encoded: message, using: encoder)
        }
    }

    /// A request, its op's fields flattened beside `id` and `op`, all keys sorted: by hand when it is
    /// hot, with `encoder` otherwise.
    mutating func write(_ request: Request, otherwiseUsing encoder: JSONEncoder) {
        func idAndOp() {
            key("id")
            switch request.id {
            case .number(let number): integer(number)
            case .string(let string): self.string(string)
            }
            field("op", request.body.op.rawValue)
        }
        switch request.body {
        case .open(let open):
            beginObject()
            key("activity")
            write(open.activity)
            idAndOp()
            key("options")
            write(open.options)
            endObject()
        case .answer(let answer):
            beginObject()
            key("continue")
            bool(answer.continue)
            key("handoff")
            integer(answer.handoff)
            idAndOp()
            key("open")
            beginArray()
            for request in answer.open {
                beginObject()
                key("options")
                write(request.options)
                field("url", request.url)
                endObject()
            }
            endArray()
            field("reason", answer.reason)
            endObject()
        case .hello, .register, .explain, .apps, .watch, .start, .result:
            append(encoded: request, using: encoder)
        }
    }

    /// Opens a reply and writes every key that sorts before `result`: `error` when it failed, `id`, `ok`, `op`.
    private mutating func beginReply(_ reply: Reply) {
        beginObject()
        // Switched on, not copied out with `try? get()`: a copy of the result cost more than the line.
        let succeeded: Bool
        switch reply.outcome {
        case .success: succeeded = true
        case .failure(let error):
            key("error")
            write(error)
            succeeded = false
        }
        id(reply.id)
        key("ok")
        bool(succeeded)
        field("op", reply.op?.rawValue)
    }

    /// A reply's `"id":`, `null` when the request's own could not be read.
    private mutating func id(_ id: RequestID?) {
        key("id")
        switch id {
        case .number(let number)?: integer(number)
        case .string(let string)?: self.string(string)
        case nil: null()
        }
    }

    private mutating func write(_ error: ErrorBody) {
        beginObject()
        field("app", error.app)
        field("code", error.code.rawValue)
        field("field", error.field)
        field("message", error.message)
        if let opened = error.opened {
            key("opened")
            beginArray()
            opened.forEach { write($0) }
            endArray()
        }
        field("reason", error.reason)
        field("rule", error.rule)
        endObject()
    }

    private mutating func write(_ opened: OpenedURL) {
        beginObject()
        field("app", opened.app)
        if let error = opened.error {
            key("error")
            write(error)
        }
        field("reason", opened.reason)
        field("rule", opened.rule)
        field("status", opened.status.rawValue)
        key("universalLinksOnly")
        bool(opened.universalLinksOnly)
        field("url", opened.url)
        endObject()
    }

    private mutating func write(_ open: OpenResult) {
        beginObject()
        field("app", open.app)
        if let apps = open.apps {
            key("apps")
            beginArray()
            apps.forEach { string($0) }
            endArray()
        }
        field("domain", open.domain)
        if open.opened.isEmpty {
            constant(#""opened":[]"#)
        } else {
            key("opened")
            beginArray()
            open.opened.forEach { write($0) }
            endArray()
        }
        field("reason", open.reason)
        field("rule", open.rule)
        field("status", open.status.rawValue)
        endObject()
    }

    private mutating func write(_ activity: Activity) {
        beginObject()
        field("activityType", activity.activityType)
        if let userInfo = activity.userInfo {
            key("userInfo")
            value(.object(userInfo))
        }
        field("webpageURL", activity.webpageURL)
        endObject()
    }

    private mutating func write(_ options: OpenOptions) {
        beginObject()
        key("universalLinksOnly")
        bool(options.universalLinksOnly)
        if let platform = options.platform { field("platform", platform.rawValue) }
        endObject()
    }
}
