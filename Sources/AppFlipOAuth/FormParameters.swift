/// The parameters of an `application/x-www-form-urlencoded` string: a query or a form body.
///
/// OAuth 2.0 says a parameter "MUST NOT be included more than once" (RFC 6749 §3.1, §3.2), so this keeps
/// every occurrence and lets the endpoint refuse repeats. Decoding is strict: a malformed `%` escape or
/// bytes that are not UTF-8 make the whole string invalid, instead of being passed through raw the way
/// lenient parsers do (a raw `%zz` in a redirect_uri must never compare equal to anything).
struct FormParameters: Sendable {
    struct Malformed: Error, Sendable, Hashable, CustomStringConvertible {
        var description: String
    }

    /// Every name-value pair, decoded, in order.
    private(set) var pairs: [(name: String, value: String)]

    init(_ pairs: [(name: String, value: String)] = []) {
        self.pairs = pairs
    }

    /// Parses `a=1&b=2`. An empty string has no parameters; `a` alone is `a` with an empty value.
    init(parsing encoded: some StringProtocol) throws(Malformed) {
        var pairs: [(name: String, value: String)] = []
        for field in encoded.utf8.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true) {
            let separator = field.firstIndex(of: UInt8(ascii: "="))
            let name = try Self.decode(field[..<(separator ?? field.endIndex)])
            var value = ""
            if let separator { value = try Self.decode(field[field.index(after: separator)...]) }
            pairs.append((name, value))
        }
        self.pairs = pairs
    }

    /// The only value of `name`, nil when absent; `.repeated` when it occurs more than once.
    func single(_ name: String) -> Lookup {
        var found: String?
        for pair in pairs where pair.name == name {
            if found != nil { return .repeated }
            found = pair.value
        }
        return found.map(Lookup.value) ?? .absent
    }

    /// The value of `name` if it occurs exactly once.
    subscript(name: String) -> String? {
        if case .value(let value) = single(name) { return value }
        return nil
    }

    /// Names that occur more than once, in first-seen order.
    var repeatedNames: [String] {
        var seen: Set<String> = []
        var repeated: [String] = []
        for pair in pairs where !seen.insert(pair.name).inserted && !repeated.contains(pair.name) {
            repeated.append(pair.name)
        }
        return repeated
    }

    mutating func append(_ name: String, _ value: String) {
        pairs.append((name, value))
    }

    /// The encoded form: unreserved characters (RFC 3986 §2.3) are kept, everything else is `%XX`-escaped,
    /// so the result is valid both as a query and as a form body.
    var encoded: String {
        pairs.map { "\(Self.encode($0.name))=\(Self.encode($0.value))" }.joined(separator: "&")
    }

    enum Lookup: Sendable, Hashable {
        case absent
        case value(String)
        case repeated
    }

    static func encode(_ string: String) -> String {
        var encoded: [UInt8] = []
        encoded.reserveCapacity(string.utf8.count)
        for byte in string.utf8 {
            if isUnreserved(byte) {
                encoded.append(byte)
            } else {
                encoded.append(UInt8(ascii: "%"))
                encoded.append(hexDigits[Int(byte >> 4)])
                encoded.append(hexDigits[Int(byte & 0x0F)])
            }
        }
        return String(decoding: encoded, as: UTF8.self)
    }

    static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
            UInt8(ascii: "~"):
            true
        default:
            false
        }
    }

    private static let hexDigits = Array("0123456789ABCDEF".utf8)

    /// Undoes form encoding: `+` is a space, `%XX` a byte; the result must be UTF-8.
    static func decode(_ bytes: some Collection<UInt8>) throws(Malformed) -> String {
        var decoded: [UInt8] = []
        decoded.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        while index != bytes.endIndex {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "+"):
                decoded.append(UInt8(ascii: " "))
            case UInt8(ascii: "%"):
                let high = bytes.index(after: index)
                guard high != bytes.endIndex, let highValue = hexValue(bytes[high]) else {
                    throw Malformed(description: "a '%' is not followed by two hex digits")
                }
                let low = bytes.index(after: high)
                guard low != bytes.endIndex, let lowValue = hexValue(bytes[low]) else {
                    throw Malformed(description: "a '%' is not followed by two hex digits")
                }
                decoded.append(highValue << 4 | lowValue)
                index = low
            default:
                decoded.append(byte)
            }
            index = bytes.index(after: index)
        }
        guard let string = String(validating: decoded, as: UTF8.self) else {
            throw Malformed(description: "a value is not valid UTF-8 once decoded")
        }
        return string
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
