/// JSON written by hand, byte for byte as `JSONEncoder.protocolEncoder` writes it (compact, `/` not
/// escaped), so that one value written here and written through `Codable` is the same bytes. Behind
/// `JSONValue.compactJSON` and the protocol's hot messages; the protocol tests compare it with `JSONEncoder`.
package enum JSONText {
    /// The project's one JSON number rule: a finite number is Swift's shortest round-trip decimal
    /// (`description`) less a trailing `.0`, which is what `JSONEncoder` writes for a `Double`: `1`, `-0`,
    /// `2.5`, `9007199254740992`, `1e+16`, `1e-07`. A number that is not finite has no JSON form and is
    /// written as `null`, as JavaScript's `JSON.stringify` does.
    package static func appendNumber(_ value: Double, to bytes: inout [UInt8]) {
        guard value.isFinite else {
            bytes.append(contentsOf: "null".utf8)
            return
        }
        // Below 2^53 an integral value's description is its digits and `.0`: write the digits directly.
        // (`Int64(exactly:)` would pull in libm, which the core does not link.)
        if value.magnitude < 9_007_199_254_740_992, Double(Int64(value)) == value, value != 0 || value.sign == .plus {
            appendInteger(Int64(value), to: &bytes)
            return
        }
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        bytes.append(contentsOf: text.utf8)
    }

    /// `value`'s decimal digits. `String(value)` is generic and not specialized: digits by hand cost a tenth
    /// as much, and the daemon writes a handoff id in every push and reply. They are written right to left
    /// into a buffer on the stack and appended at once: one append instead of one per digit.
    package static func appendInteger(_ value: Int64, to bytes: inout [UInt8]) {
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes: a sign and Int64's 19 digits fit
        withUnsafeMutableBytes(of: &digits) { buffer in
            var magnitude = value.magnitude
            var start = buffer.count
            repeat {
                start -= 1
                buffer[start] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            if value < 0 {
                start -= 1
                buffer[start] = UInt8(ascii: "-")
            }
            bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[start...]))
        }
    }

    /// `value` quoted, escaped as `JSONEncoder` escapes: `"` and `\`, the short escapes `\n \r \t \b \f`,
    /// and `\u00xx` for the other control characters. Everything else, `/` included, is copied as it is.
    package static func appendString(_ value: String, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        var value = value
        // Most strings need no escape: copy them whole rather than byte by byte.
        let copied = value.withUTF8 { utf8 in
            guard !utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) else { return false }
            bytes.append(contentsOf: utf8)
            return true
        }
        if !copied {
            for byte in value.utf8 {
                switch byte {
                case UInt8(ascii: "\""): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
                case UInt8(ascii: "\\"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
                case 0x0A: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
                case 0x0D: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
                case 0x09: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
                case 0x08: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
                case 0x0C: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
                case 0..<0x20:
                    bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0")])
                    Hex.append(byte, uppercase: false, to: &bytes)
                default: bytes.append(byte)
                }
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
