/// Hexadecimal digits: the one table behind percent escapes, JSON `\u` escapes, digests and diagnostics.
package enum Hex {
    private static let uppercaseDigits: [UInt8] = Array("0123456789ABCDEF".utf8)
    private static let lowercaseDigits: [UInt8] = Array("0123456789abcdef".utf8)

    /// Appends `byte` as two digits. Percent escapes and diagnostics use upper case (RFC 3986 §2.1);
    /// JSON escapes and digests use lower case, as `JSONEncoder` and `sha256sum` do.
    package static func append(_ byte: UInt8, uppercase: Bool, to output: inout [UInt8]) {
        let digits = uppercase ? uppercaseDigits : lowercaseDigits
        output.append(digits[Int(byte >> 4)])
        output.append(digits[Int(byte & 0x0F)])
    }

    /// `bytes` as two digits each.
    package static func string(_ bytes: some Sequence<UInt8>, uppercase: Bool) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.underestimatedCount * 2)
        for byte in bytes { append(byte, uppercase: uppercase, to: &output) }
        return String(decoding: output, as: UTF8.self)
    }

    /// The value of one hex digit of either case; `nil` for anything else.
    package static func value(of digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        default: nil
        }
    }
}
