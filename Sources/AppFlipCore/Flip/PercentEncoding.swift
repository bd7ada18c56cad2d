/// The two query-string codecs App Flip needs, written on UTF-8 bytes so that the rules are visible.
///
/// Encoding is strict: only RFC 3986 unreserved characters (`A-Z a-z 0-9 - . _ ~`) stay literal, so the
/// output means the same to every decoder, whether it maps `+` to a space (HTML forms, WHATWG, Go, Java)
/// or not (Foundation's `URLComponents.queryItems`). Decoding is the form decoding every web stack applies
/// to query values: `+` is a space, then `%XX` escapes become bytes, and the bytes must be UTF-8.
public enum PercentEncoding {
    /// `string`'s UTF-8 bytes with every byte that is not unreserved written as `%XX` (upper-case hex).
    public static func encodeStrictly(_ string: some StringProtocol) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(string.utf8.count)
        for byte in string.utf8 {
            if byte.isUnreserved {
                output.append(byte)
            } else {
                output.append(UInt8(ascii: "%"))
                output.append(hexDigits[Int(byte >> 4)])
                output.append(hexDigits[Int(byte & 0x0F)])
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// Form-decodes a query name or value: `+` becomes a space, then each `%XX` becomes its byte.
    ///
    /// Returns `nil` when a `%` is not followed by two hex digits, or when the decoded bytes are not valid
    /// UTF-8: such a value cannot be compared or echoed faithfully, so callers report it instead.
    public static func formDecode(_ encoded: some StringProtocol) -> String? {
        let bytes = Array(encoded.utf8)
        var decoded: [UInt8] = []
        decoded.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "+"):
                decoded.append(UInt8(ascii: " "))
                index += 1
            case UInt8(ascii: "%"):
                guard index + 2 < bytes.count,
                      let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2])
                else { return nil }
                decoded.append(high << 4 | low)
                index += 3
            case let byte:
                decoded.append(byte)
                index += 1
            }
        }
        return String(validating: decoded, as: UTF8.self)
    }

    private static let hexDigits: [UInt8] = Array("0123456789ABCDEF".utf8)

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        default: nil
        }
    }
}

/// One `name=value` pair of a query string, split on `&` and the first `=`, then form-decoded.
struct QueryField: Sendable, Hashable {
    /// The decoded name; `nil` when it is not valid UTF-8 after decoding.
    let name: String?
    /// The decoded value (empty when there is no `=`); `nil` when it is not valid UTF-8 after decoding.
    let value: String?
    /// The value exactly as written, for diagnostics such as a literal `+`.
    let rawValue: Substring

    /// Every field of `query`, in order. Empty segments (`a=1&&b=2`) are skipped, as browsers do.
    static func fields(of query: String) -> [QueryField] {
        query.split(separator: "&", omittingEmptySubsequences: true).map { segment in
            let name: Substring
            let rawValue: Substring
            if let equals = segment.firstIndex(of: "=") {
                name = segment[..<equals]
                rawValue = segment[segment.index(after: equals)...]
            } else {
                name = segment
                rawValue = segment[segment.endIndex...]
            }
            return QueryField(
                name: PercentEncoding.formDecode(name),
                value: PercentEncoding.formDecode(rawValue),
                rawValue: rawValue
            )
        }
    }
}

extension StringProtocol {
    /// Byte-for-byte equality. Swift's `==` compares canonical equivalence, under which `"\u{212A}"` (KELVIN
    /// SIGN) equals `"K"`: fine for text, wrong for identifiers and URIs that must match exactly.
    func isIdentical(to other: some StringProtocol) -> Bool {
        utf8.elementsEqual(other.utf8)
    }
}
