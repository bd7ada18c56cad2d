/// Decodes the two requests on the handoff hot path, `open` and `answer`, without `JSONDecoder`.
///
/// It understands only plain, well-formed lines of those two ops: any other op, an unknown or repeated
/// key, a `userInfo`, a `\u` escape, a number that is not a plain integer, anything malformed, makes it
/// return `nil`, and `Request.decode(line:using:)` then takes the `JSONDecoder` path, which is the
/// reference and produces every error. The protocol tests check that whenever it returns a request, the
/// reference returns the same one.
struct RequestFastPath {
    private let bytes: UnsafeRawBufferPointer
    private var index = 0

    static func decode(_ bytes: UnsafeRawBufferPointer) -> Request? {
        var parser = RequestFastPath(bytes: bytes)
        return parser.request()
    }

    private init(bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    private enum Field: Hashable {
        case id, op, activity, options, handoff, `continue`, open
    }

    private mutating func request() -> Request? {
        var id: RequestID?
        var op: String?
        var activity: Activity?
        var options: OpenOptions?
        var handoff: UInt64?
        var proceed: Bool?
        var open: [OpenURLRequest]?
        var seen: Set<Field> = []
        let parsed = object { key, parser in
            let field: Field
            switch key {
            case "id": field = .id; id = parser.requestID()
            case "op": field = .op; op = parser.string()
            case "activity": field = .activity; activity = parser.activity()
            case "options": field = .options; options = parser.options()
            case "handoff": field = .handoff; handoff = parser.unsigned()
            case "continue": field = .continue; proceed = parser.bool()
            case "open": field = .open; open = parser.openRequests()
            default: return false
            }
            return seen.insert(field).inserted
        }
        skipWhitespace()
        guard parsed, index == bytes.count, let id else { return nil }
        switch op {
        case "open":
            guard seen.isSubset(of: [.id, .op, .activity, .options]), let activity else { return nil }
            if seen.contains(.options), options == nil { return nil }
            return Request(id: id, .open(OpenRequest(activity: activity, options: options ?? OpenOptions())))
        case "answer":
            guard seen.isSubset(of: [.id, .op, .handoff, .continue, .open]), let handoff, let proceed else { return nil }
            if seen.contains(.open), open == nil { return nil }
            return Request(id: id, .answer(AnswerRequest(handoff: handoff, continue: proceed, open: open ?? [])))
        default:
            return nil
        }
    }

    private mutating func activity() -> Activity? {
        var type: String?
        var url: String?
        var seen: Set<String> = []
        let parsed = object { key, parser in
            switch key {
            case "activityType": type = parser.string(); if type == nil { return false }
            case "webpageURL": url = parser.string(); if url == nil { return false }
            default: return false
            }
            return seen.insert(key).inserted
        }
        guard parsed, let type else { return nil }
        return Activity(activityType: type, webpageURL: url)
    }

    private mutating func options() -> OpenOptions? {
        var universalLinksOnly: Bool?
        let parsed = object { key, parser in
            guard key == "universalLinksOnly", universalLinksOnly == nil, let value = parser.bool() else { return false }
            universalLinksOnly = value
            return true
        }
        return parsed ? OpenOptions(universalLinksOnly: universalLinksOnly ?? false) : nil
    }

    private mutating func openRequests() -> [OpenURLRequest]? {
        skipWhitespace()
        guard consume(UInt8(ascii: "[")) else { return nil }
        var requests: [OpenURLRequest] = []
        skipWhitespace()
        if consume(UInt8(ascii: "]")) { return requests }
        repeat {
            var url: String?
            var options: OpenOptions?
            var seen: Set<String> = []
            let parsed = object { key, parser in
                switch key {
                case "url": url = parser.string(); if url == nil { return false }
                case "options": options = parser.options(); if options == nil { return false }
                default: return false
                }
                return seen.insert(key).inserted
            }
            guard parsed, let url else { return nil }
            requests.append(OpenURLRequest(url: url, options: options ?? OpenOptions()))
            skipWhitespace()
        } while consume(UInt8(ascii: ","))
        return consume(UInt8(ascii: "]")) ? requests : nil
    }

    /// Parses `{ "key": value, … }`, handing each key to `member`, which parses the value and says whether
    /// it was understood.
    private mutating func object(_ member: (String, inout RequestFastPath) -> Bool) -> Bool {
        skipWhitespace()
        guard consume(UInt8(ascii: "{")) else { return false }
        skipWhitespace()
        if consume(UInt8(ascii: "}")) { return true }
        repeat {
            skipWhitespace()
            guard let key = string() else { return false }
            skipWhitespace()
            guard consume(UInt8(ascii: ":")), member(key, &self) else { return false }
            skipWhitespace()
        } while consume(UInt8(ascii: ","))
        return consume(UInt8(ascii: "}"))
    }

    private mutating func requestID() -> RequestID? {
        skipWhitespace()
        if peek == UInt8(ascii: "\"") { return string().map(RequestID.string) }
        return signed().map(RequestID.number)
    }

    /// A JSON string with only the short escapes; `nil` for `\u`, control characters or invalid UTF-8.
    private mutating func string() -> String? {
        skipWhitespace()
        guard consume(UInt8(ascii: "\"")) else { return nil }
        let start = index
        var escaped = false
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let raw = UnsafeRawBufferPointer(rebasing: bytes[start..<index])
                index += 1
                return escaped ? Self.unescape(raw) : String(validating: raw, as: UTF8.self)
            }
            if byte < 0x20 { return nil }
            if byte == UInt8(ascii: "\\") {
                escaped = true
                index += 1
                guard index < bytes.count, Self.shortEscapes[bytes[index]] != nil else { return nil }
            }
            index += 1
        }
        return nil
    }

    private static let shortEscapes: [UInt8: UInt8] = [
        UInt8(ascii: "\""): UInt8(ascii: "\""), UInt8(ascii: "\\"): UInt8(ascii: "\\"), UInt8(ascii: "/"): UInt8(ascii: "/"),
        UInt8(ascii: "b"): 0x08, UInt8(ascii: "f"): 0x0C, UInt8(ascii: "n"): 0x0A, UInt8(ascii: "r"): 0x0D, UInt8(ascii: "t"): 0x09,
    ]

    private static func unescape(_ raw: UnsafeRawBufferPointer) -> String? {
        var out: [UInt8] = []
        out.reserveCapacity(raw.count)
        var iterator = raw.makeIterator()
        while let byte = iterator.next() {
            if byte == UInt8(ascii: "\\"), let next = iterator.next() {
                out.append(shortEscapes[next]!)
            } else {
                out.append(byte)
            }
        }
        return String(validating: out, as: UTF8.self)
    }

    private mutating func bool() -> Bool? {
        skipWhitespace()
        if literal("true") { return true }
        if literal("false") { return false }
        return nil
    }

    private mutating func signed() -> Int64? {
        let negative = consume(UInt8(ascii: "-"))
        guard let magnitude = unsigned(), magnitude <= UInt64(Int64.max) else { return nil }
        return negative ? -Int64(magnitude) : Int64(magnitude)
    }

    /// A plain integer: digits only, no leading zero, no fraction or exponent.
    private mutating func unsigned() -> UInt64? {
        skipWhitespace()
        let start = index
        var value: UInt64 = 0
        while let byte = peek, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
            let (times, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times.addingReportingOverflow(UInt64(byte - UInt8(ascii: "0")))
            guard !overflow1, !overflow2 else { return nil }
            value = sum
            index += 1
        }
        let length = index - start
        guard length > 0, !(length > 1 && bytes[start] == UInt8(ascii: "0")) else { return nil }
        if let next = peek, next == UInt8(ascii: ".") || next == UInt8(ascii: "e") || next == UInt8(ascii: "E") { return nil }
        return value
    }

    private mutating func literal(_ word: StaticString) -> Bool {
        let count = word.utf8CodeUnitCount
        guard index + count <= bytes.count else { return false }
        let matches = word.withUTF8Buffer { word in
            (0..<count).allSatisfy { bytes[index + $0] == word[$0] }
        }
        if matches { index += count }
        return matches
    }

    private var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func consume(_ byte: UInt8) -> Bool {
        guard peek == byte else { return false }
        index += 1
        return true
    }

    private mutating func skipWhitespace() {
        while let byte = peek, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { index += 1 }
    }
}
