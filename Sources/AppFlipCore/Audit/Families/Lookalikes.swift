/// Characters that a lenient comparison takes for others: the tables the generators draw their Unicode
/// mutations from. Hand-written: the core has no Unicode normalisation of its own, and each entry is chosen
/// for the comparison it fools.
enum Lookalikes {
    /// The fullwidth form of a printable ASCII character (U+FF01–U+FF5E): NFKC and NFKD give the ASCII back.
    static func fullwidth(_ character: Character) -> Character? {
        guard let ascii = character.asciiValue, (0x21...0x7E).contains(ascii) else { return nil }
        return Character(Unicode.Scalar(UInt32(ascii) + 0xFEE0)!)
    }

    /// A Cyrillic letter drawn like a Latin one: no normalisation form gives the Latin letter back.
    static func homoglyph(_ character: Character) -> Character? {
        let table: [Character: Character] = [
            "a": "\u{0430}", "c": "\u{0441}", "e": "\u{0435}", "o": "\u{043E}", "p": "\u{0440}", "x": "\u{0445}", "y": "\u{0443}",
            "i": "\u{0456}", "s": "\u{0455}", "j": "\u{0458}", "A": "\u{0410}", "B": "\u{0412}", "C": "\u{0421}", "E": "\u{0415}",
            "H": "\u{041D}", "K": "\u{041A}", "M": "\u{041C}", "O": "\u{041E}", "P": "\u{0420}", "T": "\u{0422}", "X": "\u{0425}",
        ]
        return table[character]
    }

    /// The precomposed (NFC) accented form of a vowel or consonant; accent-insensitive comparison (a database
    /// collation) takes it for the plain letter.
    static func precomposed(_ character: Character) -> Character? {
        let table: [Character: Character] = [
            "a": "\u{E1}", "e": "\u{E9}", "i": "\u{ED}", "o": "\u{F3}", "u": "\u{FA}", "n": "\u{F1}", "c": "\u{E7}", "A": "\u{C1}",
            "E": "\u{C9}", "I": "\u{CD}", "O": "\u{D3}", "U": "\u{DA}",
        ]
        return table[character]
    }

    /// A letter whose Unicode case mapping gives a Latin letter back: dotless ı upper-cases to I, long ſ to S,
    /// the Kelvin sign lower-cases to k.
    static func caseFolding(_ character: Character) -> Character? {
        let table: [Character: Character] = ["i": "\u{0131}", "s": "\u{017F}", "k": "\u{212A}", "K": "\u{212A}"]
        return table[character]
    }

    /// The canonical decomposition (NFD) of the precomposed letters of `precomposed(_:)`: the letter and its
    /// combining mark.
    static func decomposed(_ character: Character) -> String? {
        let marks: [Character: (Character, String)] = [
            "\u{E1}": ("a", "\u{301}"), "\u{E9}": ("e", "\u{301}"), "\u{ED}": ("i", "\u{301}"), "\u{F3}": ("o", "\u{301}"),
            "\u{FA}": ("u", "\u{301}"), "\u{F1}": ("n", "\u{303}"), "\u{E7}": ("c", "\u{327}"), "\u{C1}": ("A", "\u{301}"),
            "\u{C9}": ("E", "\u{301}"), "\u{CD}": ("I", "\u{301}"), "\u{D3}": ("O", "\u{301}"), "\u{DA}": ("U", "\u{301}"),
            "\u{FC}": ("u", "\u{308}"), "\u{F6}": ("o", "\u{308}"), "\u{E4}": ("a", "\u{308}"), "\u{E0}": ("a", "\u{300}"),
            "\u{E8}": ("e", "\u{300}"),
        ]
        return marks[character].map { String($0.0) + $0.1 }
    }

    /// `text` with the first character `replace` has a replacement for replaced; nil when none has one.
    static func replacingFirst(in text: String, _ replace: (Character) -> String?) -> (String, Character)? {
        for index in text.indices {
            if let replacement = replace(text[index]) {
                var result = text
                result.replaceSubrange(index...index, with: replacement)
                return (result, text[index])
            }
        }
        return nil
    }

    /// `character` as `%XX` per UTF-8 byte, upper-case hex.
    static func percentEncoded(_ character: Character) -> String {
        String(character).utf8.map { "%" + hex($0) }.joined()
    }

    static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 0xF)]])
    }
}
