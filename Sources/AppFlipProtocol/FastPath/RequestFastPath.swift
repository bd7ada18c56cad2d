/// Decodes the two requests on the handoff hot path, `open` and `answer`, without `JSONDecoder`.
///
/// It understands only plain, well-formed lines of those two ops: any other op, an unknown or repeated
/// key, a `userInfo`, a `\u` escape, an `id` that is no integer in the signed 64-bit range, a `handoff`
/// that is not a plain integer, anything malformed, makes it return `nil`, and `Request.decode(line:using:)` then takes the `JSONDecoder` path, which is the
/// reference and produces every error. The protocol tests check that whenever it returns a request, the
/// reference returns the same one.
enum RequestFastPath {
    static func decode(_ bytes: UnsafeRawBufferPointer) -> Request? {
        var scanner = FastJSONScanner(bytes: bytes)
        return scanner.request()
    }
}

extension FastJSONScanner {
    private enum RequestField: Int {
        case id, op, activity, options, handoff, `continue`, open

        var key: SeenKeys { SeenKeys(rawValue: 1 << rawValue) }
        static let openKeys = keys([.id, .op, .activity, .options])
        static let answerKeys = keys([.id, .op, .handoff, .continue, .open])

        private static func keys(_ fields: [RequestField]) -> SeenKeys {
            SeenKeys(rawValue: fields.reduce(0) { $0 | 1 << $1.rawValue })
        }
    }

    fileprivate mutating func request() -> Request? {
        var id: RequestID?
        var op: String?
        var activity: Activity?
        var options: OpenOptions?
        var handoff: UInt64?
        var proceed: Bool?
        var open: [OpenURLRequest]?
        var seen: SeenKeys = []
        let parsed = object { key, parser in
            let field: RequestField
            switch key {
            case "id":
                field = .id
                id = parser.requestID()
            case "op":
                field = .op
                op = parser.string()
            case "activity":
                field = .activity
                activity = parser.activity()
            case "options":
                field = .options
                options = parser.options()
            case "handoff":
                field = .handoff
                handoff = parser.unsigned()
            case "continue":
                field = .continue
                proceed = parser.bool()
            case "open":
                field = .open
                open = parser.openRequests()
            default: return false
            }
            return seen.insert(bit: field.rawValue)
        }
        guard parsed, atEnd, let id else { return nil }
        switch op {
        case "open":
            guard seen.isSubset(of: RequestField.openKeys), let activity else { return nil }
            if seen.contains(RequestField.options.key), options == nil { return nil }
            return Request(id: id, .open(OpenRequest(activity: activity, options: options ?? OpenOptions())))
        case "answer":
            guard seen.isSubset(of: RequestField.answerKeys), let handoff, let proceed else { return nil }
            if seen.contains(RequestField.open.key), open == nil { return nil }
            return Request(id: id, .answer(AnswerRequest(handoff: handoff, continue: proceed, open: open ?? [])))
        default:
            return nil
        }
    }

    mutating func activity() -> Activity? {
        var type: String?
        var url: String?
        var seen: SeenKeys = []
        let parsed = object { key, parser in
            switch key {
            case "activityType":
                type = parser.string(known: browsingWebActivityType)
                if type == nil { return false }
                return seen.insert(bit: 0)
            case "webpageURL":
                url = parser.string()
                if url == nil { return false }
                return seen.insert(bit: 1)
            default: return false
            }
        }
        guard parsed, let type else { return nil }
        return Activity(activityType: type, webpageURL: url)
    }

    mutating func options() -> OpenOptions? {
        var universalLinksOnly: Bool?
        let parsed = object { key, parser in
            guard key == "universalLinksOnly", universalLinksOnly == nil, let value = parser.bool() else { return false }
            universalLinksOnly = value
            return true
        }
        return parsed ? OpenOptions(universalLinksOnly: universalLinksOnly ?? false) : nil
    }

    mutating func openRequests() -> [OpenURLRequest]? {
        guard beginArray() else { return nil }
        var requests: [OpenURLRequest] = []
        if endArray() { return requests }
        repeat {
            var url: String?
            var options: OpenOptions?
            var seen: SeenKeys = []
            let parsed = object { key, parser in
                switch key {
                case "url":
                    url = parser.string()
                    if url == nil { return false }
                    return seen.insert(bit: 0)
                case "options":
                    options = parser.options()
                    if options == nil { return false }
                    return seen.insert(bit: 1)
                default: return false
                }
            }
            guard parsed, let url else { return nil }
            requests.append(OpenURLRequest(url: url, options: options ?? OpenOptions()))
        } while nextElement()
        return endArray() ? requests : nil
    }
}
