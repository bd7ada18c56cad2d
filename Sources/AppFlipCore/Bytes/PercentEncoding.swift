/// The one percent codec (RFC 3986 §2.1), written on UTF-8 bytes so that the rules are visible.
///
/// Encoding is strict: only RFC 3986 unreserved characters (`A-Z a-z 0-9 - . _ ~`) stay literal, so the
/// output means the same to every decoder, whether it maps `+` to a space (HTML forms, WHATWG, Go, Java)
/// or not (Foundation's `URLComponents.queryItems`). Decoding is strict too: a `%` not followed by two hex
/// digits makes the whole text undecodable, instead of passing through raw as lenient parsers let it (a
/// raw `%zz` in a redirect_uri must never compare equal to anything).
public enum PercentEncoding {
    /// `string`'s UTF-8 bytes with every byte that is not unreserved written as `%XX` (upper-case hex).
    public static func encodeStrictly(_ string: some StringProtocol) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(string.utf8.count)
        for byte in string.utf8 {
            if isUnreserved(byte) {
                output.append(byte)
            } else {
                output.append(UInt8(ascii: "%"))
                Hex.append(byte, uppercase: true, to: &output)
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// Form-decodes a query name or value: `+` is a space, then each `%XX` becomes its byte.
    ///
    /// Returns `nil` when a `%` is not followed by two hex digits, or when the decoded bytes are not valid
    /// UTF-8: such a value cannot be compared or echoed faithfully, so callers report it instead.
    public static func formDecode(_ encoded: some StringProtocol) -> String? {
        decode(encoded.utf8, plusIsSpace: true).flatMap { String(validating: $0, as: UTF8.self) }
    }

    /// The bytes `encoded` stands for; `nil` when a `%` is not followed by two hex digits.
    ///
    /// `plusIsSpace` is the one difference between the two users of percent escapes: form data (queries
    /// read as parameters, form bodies, HTTP Basic credentials) reads `+` as a space; a URL compared as a
    /// URL (AASA's `percentEncoded: false`) keeps `+` as itself. The result need not be UTF-8: a path may
    /// escape any byte.
    package static func decode(_ encoded: some Collection<UInt8>, plusIsSpace: Bool) -> [UInt8]? {
        var decoded: [UInt8] = []
        decoded.reserveCapacity(encoded.count)
        var index = encoded.startIndex
        while index != encoded.endIndex {
            let byte = encoded[index]
            index = encoded.index(after: index)
            switch byte {
            case UInt8(ascii: "+") where plusIsSpace:
                decoded.append(UInt8(ascii: " "))
            case UInt8(ascii: "%"):
                guard index != encoded.endIndex, let high = Hex.value(of: encoded[index]) else { return nil }
                index = encoded.index(after: index)
                guard index != encoded.endIndex, let low = Hex.value(of: encoded[index]) else { return nil }
                index = encoded.index(after: index)
                decoded.append(high << 4 | low)
            default:
                decoded.append(byte)
            }
        }
        return decoded
    }

    /// Whether `byte` is an RFC 3986 unreserved character (§2.3): the only ones that stay literal when
    /// encoding strictly.
    package static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
            UInt8(ascii: "~"):
            true
        default:
            false
        }
    }
}
