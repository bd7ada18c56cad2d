/// An absolute URL split into its RFC 3986 components, each kept exactly as written.
///
/// Every rule in this package compares raw, percent-encoded forms: AASA matching compares the encoded
/// path unless a rule opts out, and the App Flip redirect allowlist must refuse lookalikes that a
/// normalising parser would quietly repair (`%2F`, upper-case hosts, `:443`). So nothing here decodes,
/// lower-cases or normalises; callers decide.
public struct RawURL: Sendable, Hashable, CustomStringConvertible {
    /// The scheme as written, without the `:`.
    public var scheme: String { parts.scheme }
    /// The text before the last `@` of the authority, when there is one.
    public var userinfo: String? { parts.userinfo }
    /// The host as written; an IP-literal keeps its brackets.
    public var host: String { parts.host }
    /// The text after the port's `:`, when there is one. It may be empty (`https://h:/`).
    public var port: String? { parts.port }
    /// The path as written; empty when the URL has none.
    public var path: String { parts.path }
    /// The text after the first `?`, up to any `#`; `nil` when there is no `?`.
    public var query: String? { parts.query }
    /// The text after the first `#`; `nil` when there is no `#`.
    public var fragment: String? { parts.fragment }
    /// The URL exactly as it was parsed.
    public var string: String { parts.string }

    /// The components, in one object: a handoff copies and drops its URL several times, and eight strings
    /// held inline made each copy eight reference counts; `Benchmarks/instructions-per-handoff` shows the saving
    /// net of the object's allocation.
    private let parts: Parts

    private final class Parts: Sendable {
        let scheme: String
        let userinfo: String?
        let host: String
        let port: String?
        let path: String
        let query: String?
        let fragment: String?
        let string: String

        init(
            scheme: String,
            userinfo: String?,
            host: String,
            port: String?,
            path: String,
            query: String?,
            fragment: String?,
            string: String
        ) {
            self.scheme = scheme
            self.userinfo = userinfo
            self.host = host
            self.port = port
            self.path = path
            self.query = query
            self.fragment = fragment
            self.string = string
        }
    }

    /// Equal when written alike: the components follow from the string.
    public static func == (lhs: RawURL, rhs: RawURL) -> Bool {
        lhs.parts === rhs.parts || lhs.parts.string == rhs.parts.string
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(parts.string)
    }

    /// The URL exactly as given.
    public var description: String { string }

    /// Splits `string`, refusing anything that is not a syntactically valid absolute URL with an authority.
    public init(_ string: String) throws(URLSyntaxError) {
        // Read in place (a native string already is contiguous): copying the bytes into an array cost an
        // allocation per URL routed.
        var string = string
        string.makeContiguousUTF8()
        let parsed = string.utf8.withContiguousStorageIfAvailable { bytes in
            Result { () throws(URLSyntaxError) in try RawURL(parsing: bytes, of: string) }
        }
        guard let parsed else { preconditionFailure("a contiguous UTF-8 string has contiguous storage") }
        self = try parsed.get()
    }

    private init(parsing bytes: UnsafeBufferPointer<UInt8>, of string: String) throws(URLSyntaxError) {
        guard !bytes.isEmpty else { throw URLSyntaxError(.empty, at: 0) }
        try Self.checkCharacters(bytes)

        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")) else { throw URLSyntaxError(.missingScheme, at: 0) }
        let schemeBytes = bytes[..<colon]
        guard let first = schemeBytes.first, first.isASCIILetter,
            schemeBytes.allSatisfy({ $0.isASCIILetter || $0.isASCIIDigit || $0 == 0x2B || $0 == 0x2D || $0 == 0x2E })
        else { throw URLSyntaxError(.invalidScheme, at: 0) }

        var cursor = colon + 1
        guard bytes.count >= cursor + 2, bytes[cursor] == 0x2F, bytes[cursor + 1] == 0x2F else {
            throw URLSyntaxError(.missingAuthority, at: cursor)
        }
        cursor += 2
        let authorityEnd = bytes[cursor...].firstIndex(where: { $0 == 0x2F || $0 == 0x3F || $0 == 0x23 }) ?? bytes.endIndex
        let authority = bytes[cursor..<authorityEnd]

        var hostStart = authority.startIndex
        var userinfo: String?
        if let at = authority.lastIndex(of: UInt8(ascii: "@")) {
            userinfo = String(decoding: authority[..<at], as: UTF8.self)
            hostStart = at + 1
        }
        let hostAndPort = authority[hostStart...]
        var host: Slice<UnsafeBufferPointer<UInt8>>
        var port: String?
        if hostAndPort.first == UInt8(ascii: "[") {
            guard let close = hostAndPort.firstIndex(of: UInt8(ascii: "]")) else {
                throw URLSyntaxError(.invalidHost, at: hostStart)
            }
            host = hostAndPort[...close]
            let rest = hostAndPort[(close + 1)...]
            if let sep = rest.first {
                guard sep == UInt8(ascii: ":") else { throw URLSyntaxError(.invalidHost, at: close + 1) }
                port = String(decoding: rest.dropFirst(), as: UTF8.self)
            }
        } else if let sep = hostAndPort.firstIndex(of: UInt8(ascii: ":")) {
            host = hostAndPort[..<sep]
            port = String(decoding: hostAndPort[(sep + 1)...], as: UTF8.self)
        } else {
            host = hostAndPort
        }
        guard !host.isEmpty else { throw URLSyntaxError(.emptyHost, at: hostStart) }
        if host.contains(where: { $0 == 0x5B || $0 == 0x5D }) && host.first != 0x5B {
            throw URLSyntaxError(.invalidHost, at: hostStart)
        }
        if let port, !port.utf8.allSatisfy(\.isASCIIDigit) {
            throw URLSyntaxError(.invalidPort, at: hostStart + host.count + 1)
        }

        cursor = authorityEnd
        let pathEnd = bytes[cursor...].firstIndex(where: { $0 == 0x3F || $0 == 0x23 }) ?? bytes.endIndex
        let path = String(decoding: bytes[cursor..<pathEnd], as: UTF8.self)
        cursor = pathEnd
        var query: String?
        if cursor < bytes.endIndex, bytes[cursor] == 0x3F {
            let queryEnd = bytes[(cursor + 1)...].firstIndex(of: 0x23) ?? bytes.endIndex
            query = String(decoding: bytes[(cursor + 1)..<queryEnd], as: UTF8.self)
            cursor = queryEnd
        }
        var fragment: String?
        if cursor < bytes.endIndex, bytes[cursor] == 0x23 {
            let rest = bytes[(cursor + 1)...]
            if let extra = rest.firstIndex(of: 0x23) { throw URLSyntaxError(.invalidCharacter("#"), at: extra) }
            fragment = String(decoding: rest, as: UTF8.self)
        }

        parts = Parts(
            scheme: String(decoding: schemeBytes, as: UTF8.self),
            userinfo: userinfo,
            host: String(decoding: host, as: UTF8.self),
            port: port,
            path: path,
            query: query,
            fragment: fragment,
            string: string
        )
    }

    /// The host lower-cased for comparison; hosts are case-insensitive (RFC 3986 §3.2.2).
    public var normalizedHost: String { host.lowercasedASCII }

    /// The scheme lower-cased for comparison; schemes are case-insensitive (RFC 3986 §3.1).
    public var normalizedScheme: String { scheme.lowercasedASCII }

    /// Refuses bytes that RFC 3986 never allows in a URL, and `%` not followed by two hex digits.
    private static func checkCharacters(_ bytes: UnsafeBufferPointer<UInt8>) throws(URLSyntaxError) {
        // One bit per ASCII byte that `isURLCharacter` allows: a shift and a mask per byte instead of its
        // dozen comparisons, which callgrind showed on every byte of a long App Flip link.
        let allowed = Self.urlCharacterBits
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte < 0x80, (byte < 0x40 ? allowed.low : allowed.high) & (1 << UInt64(byte & 0x3F)) != 0 {
                index += 1
                continue
            }
            if byte == 0x25 {
                guard index + 2 < bytes.count, Hex.value(of: bytes[index + 1]) != nil, Hex.value(of: bytes[index + 2]) != nil else {
                    throw URLSyntaxError(.invalidPercentEscape, at: index)
                }
                index += 3
                continue
            }
            throw URLSyntaxError(.invalidCharacter(Self.describe(byte: byte, in: bytes, at: index)), at: index)
        }
    }

    /// ``UInt8/isURLCharacter`` for the bytes 0–63 (`low`) and 64–127 (`high`), one bit each.
    private static let urlCharacterBits: (low: UInt64, high: UInt64) = (0..<128).reduce((0, 0)) { bits, byte in
        guard UInt8(byte).isURLCharacter else { return bits }
        return byte < 64 ? (bits.0 | 1 << UInt64(byte), bits.1) : (bits.0, bits.1 | 1 << UInt64(byte - 64))
    }

    private static func describe(byte: UInt8, in bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> String {
        if byte < 0x20 || byte == 0x7F { return "U+00" + Hex.string([byte], uppercase: true) }
        if byte < 0x80 { return String(UnicodeScalar(byte)) }
        return "non-ASCII byte 0x" + Hex.string([byte], uppercase: true)
    }
}

extension UInt8 {
    var isASCIILetter: Bool { (0x41...0x5A).contains(self) || (0x61...0x7A).contains(self) }
    var isASCIIDigit: Bool { (0x30...0x39).contains(self) }

    /// Unreserved, gen-delims and sub-delims: every character RFC 3986 allows outside a `%` escape.
    var isURLCharacter: Bool {
        if PercentEncoding.isUnreserved(self) { return true }
        switch self {
        case 0x3A, 0x2F, 0x3F, 0x23, 0x5B, 0x5D, 0x40: return true  // : / ? # [ ] @
        case 0x21, 0x24, 0x26, 0x27, 0x28, 0x29, 0x2A, 0x2B, 0x2C, 0x3B, 0x3D: return true  // ! $ & ' ( ) * + , ; =
        default: return false
        }
    }
}

extension String {
    /// ASCII-only lower-casing: hosts and scheme names are ASCII, and locale-aware folding would be wrong.
    /// Most are lower case already, and come back as they are, with no copy (routing asks for every URL's).
    var lowercasedASCII: String {
        let isUpper = { (byte: UInt8) in (0x41...0x5A).contains(byte) }
        // In place: the generic walk over `utf8` cost three times as much per byte.
        guard utf8.withContiguousStorageIfAvailable({ $0.contains(where: isUpper) }) ?? utf8.contains(where: isUpper) else { return self }
        return String(decoding: utf8.map { (0x41...0x5A).contains($0) ? $0 + 0x20 : $0 }, as: UTF8.self)
    }

    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}

/// Where a URL that was opened departs from the one expected, in words: for "opened X, not the
/// redirect_uri Y: …", so that a partner sees the byte that differs instead of a routing error.
public enum URLDifference {
    /// E.g. `it adds "/extra"`, or `they differ at byte 8: "OAUTH-REDIRECT.g" where the redirect_uri has "oauth-redirect.g"`.
    public static func describe(_ opened: String, expected: String) -> String {
        let common = zip(opened.utf8, expected.utf8).prefix { $0 == $1 }.count
        let rest = String(decoding: opened.utf8.dropFirst(common).prefix(24), as: UTF8.self)
        if common == expected.utf8.count { return "it adds \(String(reflecting: rest))" }
        if common == opened.utf8.count { return "it lacks \(String(reflecting: String(decoding: expected.utf8.dropFirst(common), as: UTF8.self)))" }
        let wanted = String(decoding: expected.utf8.dropFirst(common).prefix(24), as: UTF8.self)
        return "they differ at byte \(common): \(String(reflecting: rest)) where the redirect_uri has \(String(reflecting: wanted))"
    }

    /// The URL without its query and fragment: the part compared with a redirect_uri.
    public static func base(of url: String) -> String {
        String(url.prefix { $0 != "?" && $0 != "#" })
    }
}
