extension FastJSONScanner {
    /// A request line's `id` and `op`, read without building its other values: so that a line can be
    /// refused by its size and op before anything parses it. `nil` when the line is not a plain object.
    static func envelope(of bytes: UnsafeRawBufferPointer) -> (id: RequestID?, op: String?)? {
        var scanner = FastJSONScanner(bytes: bytes)
        var id: RequestID?
        var op: String?
        let parsed = scanner.object { key, scanner in
            switch key {
            case "id":
                // The first one counts, as in the full parser.
                guard let value = scanner.requestID() else { return false }
                if id == nil { id = value }
                return true
            case "op":
                op = scanner.string()
                return op != nil
            default:
                return scanner.skipValue()
            }
        }
        return parsed ? (id, op) : nil
    }

    /// The first top-level `id` of a request line when it is a number, judged exactly (``number()``), for the
    /// `JSONDecoder` path, whose integers go through rounding. `nil` when the `id` is no number, when there is
    /// none, or when a key before it has an escape (it could spell `id`).
    static func numericID(of bytes: UnsafeRawBufferPointer) -> Number? {
        var scanner = FastJSONScanner(bytes: bytes)
        var found: Number?
        var decided = false
        let parsed = scanner.object { key, scanner in
            guard !decided else { return scanner.skipValue() }
            guard key.isPlain else { return false }
            guard key == "id" else { return scanner.skipValue() }
            decided = true
            scanner.skipWhitespace()
            guard let next = scanner.peek, next == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(next) else {
                return scanner.skipValue()
            }
            found = scanner.number()
            return found != nil
        }
        return parsed ? found : nil
    }

    /// Steps over one value of any kind and depth in a single pass, with no allocation and no recursion.
    /// It checks only what it needs to find the value's end: the full parser still judges the rest.
    mutating func skipValue() -> Bool {
        skipWhitespace()
        var depth = 0
        repeat {
            guard let byte = peek else { return false }
            switch byte {
            case UInt8(ascii: "\""):
                guard skipString() else { return false }
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                depth += 1
                index += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                guard depth > 0 else { return false }
                depth -= 1
                index += 1
            default:
                // A number, a literal, or the separators inside a container: none of them can hide a quote
                // or a bracket, so they are stepped over byte by byte.
                guard depth > 0 || !Self.endsScalar(byte) else { return false }
                index += 1
                if depth == 0 {
                    while let next = peek, !Self.endsScalar(next) { index += 1 }
                }
            }
        } while depth > 0
        return true
    }

    private static func endsScalar(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), 0x20, 0x09, 0x0A, 0x0D: true
        default: false
        }
    }

    /// Steps over a string, escapes included.
    private mutating func skipString() -> Bool {
        index += 1
        while let byte = peek {
            index += 1
            if byte == UInt8(ascii: "\"") { return true }
            if byte == UInt8(ascii: "\\") { index += 1 }
        }
        return false
    }
}
