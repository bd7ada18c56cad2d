/// The two transformations a rule may ask for before comparing: percent-decoding (`percentEncoded: false`)
/// and case folding (`caseSensitive: false`). Both work on UTF-8 bytes.
enum TextTransform {
    /// Lower-cases ASCII letters, and every other scalar whose lower-case mapping is a single scalar.
    /// Mappings that expand (`İ` → `i̇`) are left alone, so that `?` still matches one character.
    /// Bytes that are not valid UTF-8 (possible after decoding) get ASCII folding only.
    static func caseFolded(_ bytes: some Collection<UInt8>) -> [UInt8] {
        if bytes.allSatisfy({ $0 < 0x80 }) {
            return bytes.map { (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 }
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            return bytes.map { (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 }
        }
        var folded: [UInt8] = []
        folded.reserveCapacity(bytes.count)
        for scalar in text.unicodeScalars {
            let mapping = scalar.properties.lowercaseMapping.unicodeScalars
            let lower = mapping.count == 1 ? mapping.first! : scalar
            UTF8.encode(lower) { folded.append($0) }
        }
        return folded
    }

    /// Replaces each `%XX` escape with its byte. `RawURL` has already refused malformed escapes; any left
    /// here stay as written.
    static func percentDecoded(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
        guard bytes.contains(UInt8(ascii: "%")) else { return Array(bytes) }
        var decoded: [UInt8] = []
        decoded.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%"), index + 2 < bytes.endIndex,
               let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2]) {
                decoded.append(high << 4 | low)
                index += 3
            } else {
                decoded.append(byte)
                index += 1
            }
        }
        return decoded
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
