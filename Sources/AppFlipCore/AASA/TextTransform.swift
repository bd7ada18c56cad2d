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

    /// Replaces each `%XX` escape with its byte; `+` stays itself, since AASA compares URLs, not forms.
    /// `RawURL` has already refused malformed escapes, so the strict decoder never fails here.
    static func percentDecoded(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
        guard bytes.contains(UInt8(ascii: "%")), let decoded = PercentEncoding.decode(bytes, plusIsSpace: false) else {
            return Array(bytes)
        }
        return decoded
    }
}

/// How a rule wants the URL's text: as written or percent-decoded, with case kept or folded.
struct TextForm: Hashable, Sendable {
    let decodes: Bool
    let foldsCase: Bool

    init(percentEncoded: Bool, caseSensitive: Bool) {
        self.decodes = !percentEncoded
        self.foldsCase = !caseSensitive
    }

    /// Which of `MatchInput`'s four per-form caches holds this form's text.
    var slot: Int { (decodes ? 2 : 0) + (foldsCase ? 1 : 0) }
}
