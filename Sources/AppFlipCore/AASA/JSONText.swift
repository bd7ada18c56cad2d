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

    /// `value`'s decimal digits: the daemon writes a handoff id in every push and reply.
    package static func appendInteger(_ value: Int64, to bytes: inout [UInt8]) {
        withDecimalDigits(of: value) { bytes.append(contentsOf: $0) }
    }

    /// `value` quoted, escaped as `JSONEncoder` escapes: `"` and `\`, the short escapes `\n \r \t \b \f`,
    /// and `\u00xx` for the other control characters. Everything else, `/` included, is copied as it is.
    package static func appendString(_ value: String, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        var value = value
        // Most strings need no escape: copy them whole rather than byte by byte.
        let copied = value.withUTF8 { utf8 in
            guard !needsEscape(utf8) else { return false }
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

    /// Whether any byte of `utf8` is escaped in a JSON string: `"`, `\` or a control character. Most
    /// strings have none and are copied whole.
    package static func needsEscape(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        plainCount(UnsafeRawBufferPointer(utf8), asciiOnly: false) < utf8.count
    }

    /// How many bytes at the start of `bytes` a JSON string holds as they are: none is `"`, `\` or a
    /// control character, nor, with `asciiOnly`, above 0x7F. Eight bytes at a time, as one word whose
    /// stopping bytes are marked exactly, so the first one's place is the mark's lowest bit: byte by byte,
    /// these scans were the protocol writer's and reader's largest costs. Only a tail shorter than a word
    /// goes byte by byte (copying it into a word cost more).
    package static func plainCount(_ bytes: UnsafeRawBufferPointer, asciiOnly: Bool) -> Int {
        let low7: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
        let ones: UInt64 = 0x0101_0101_0101_0101
        /// 0x80 in exactly the bytes of `word` that are zero: no carry crosses a byte, as none can overflow.
        func zeroBytes(_ word: UInt64) -> UInt64 { ~(((word & low7) &+ low7) | word | low7) }
        var index = 0
        while index + 8 <= bytes.count {
            let word = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self))
            var stops = zeroBytes(word & (ones &* 0xE0))  // below 0x20
            stops |= zeroBytes(word ^ (ones &* UInt64(UInt8(ascii: "\""))))
            stops |= zeroBytes(word ^ (ones &* UInt64(UInt8(ascii: "\\"))))
            if asciiOnly { stops |= word & ~low7 }
            if stops != 0 { return index + stops.trailingZeroBitCount / 8 }
            index += 8
        }
        while index < bytes.count {
            let byte = bytes[index]
            guard byte >= 0x20, byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\"), !asciiOnly || byte < 0x80 else { break }
            index += 1
        }
        return index
    }
}
