/// The mutations of an opaque identifier a partner compares exactly — a client id, a code, a token, an
/// Android package or certificate fingerprint: each differs from it byte for byte, and each is what one
/// kind of inexact comparison (case-insensitive, decoding, normalising, prefix, trimming, a C string's
/// NUL) takes for it. Pure; the caller chooses the families its rule forbids.
public enum IdentifierMutations {
    /// Every mutation of `value` in `families` (all of them by default), each once, none byte for byte
    /// equal to `value`, in family order.
    public static func all(of value: String, families: Set<MutationFamily> = Set(MutationFamily.allCases)) -> [Mutation] {
        var mutations: [Mutation] = []
        for family in MutationFamily.allCases where families.contains(family) {
            mutations += generate(family, value)
        }
        return Unique.mutations(mutations, excluding: [value])
    }

    static func generate(_ family: MutationFamily, _ value: String) -> [Mutation] {
        switch family {
        case .letterCase: return letterCase(value)
        case .percentEncoding:
            return Lookalikes.replacingFirst(in: value, { $0.isLetter || $0.isNumber ? Lookalikes.percentEncoded($0) : nil }).map {
                [Mutation(.percentEncoding, "'\($0.1)' percent-encoded", $0.0)]
            } ?? []
        case .doublePercentEncoding:
            return Lookalikes.replacingFirst(
                in: value,
                { $0.isLetter || $0.isNumber ? Lookalikes.percentEncoded($0).replacing("%", with: "%25") : nil }
            ).map { [Mutation(.doublePercentEncoding, "'\($0.1)' percent-encoded twice", $0.0)] } ?? []
        case .unicode: return unicode(value)
        case .prefix:
            guard value.count > 1 else { return [] }
            return [
                Mutation(.prefix, "without its last character", String(value.dropLast())),
                Mutation(.prefix, "without its first character", String(value.dropFirst())),
            ]
        case .suffix:
            // A NUL ends a C string: a comparison made on one takes the rest for nothing.
            return [Mutation(.suffix, "with a character appended", value + "x"), Mutation(.suffix, "with a NUL and more appended", value + "\u{0}x")]
        case .trailing:
            return [
                Mutation(.trailing, "with a trailing space", value + " "), Mutation(.trailing, "with a leading space", " " + value),
                Mutation(.trailing, "with a trailing '/'", value + "/"), Mutation(.trailing, "with a trailing '.'", value + "."),
                Mutation(.trailing, "with a trailing NUL", value + "\u{0}"),
            ]
        case .truncation:
            return (value.count > 3 ? [Mutation(.truncation, "cut to its first half", String(value.prefix(value.count / 2)))] : [])
                + [Mutation(.truncation, "empty", "")]
        case .sibling, .parameters, .port, .length, .reserved:
            return []
        }
    }

    private static func letterCase(_ value: String) -> [Mutation] {
        var mutations = [
            Mutation(.letterCase, "in upper case", value.uppercased()), Mutation(.letterCase, "in lower case", value.lowercased()),
        ]
        if let (toggled, letter) = Lookalikes.replacingFirst(
            in: value,
            { character in
                guard character.isCased else { return nil }
                return character.isUppercase ? character.lowercased() : character.uppercased()
            }
        ) {
            mutations.append(Mutation(.letterCase, "its first cased letter '\(letter)' in the other case", toggled))
        }
        return mutations
    }

    /// The Unicode lookalikes of `value`: a fullwidth character (NFKC and NFKD give it back), a letter with a
    /// combining accent (NFD; accent-insensitive comparison gives it back), a precomposed accented letter
    /// (NFC), a letter that case mapping turns into the plain one, a Cyrillic homoglyph; and, for a value
    /// that holds an accented letter already, its other normalisation form.
    static func unicode(_ value: String) -> [Mutation] {
        var mutations: [Mutation] = []
        if let (text, original) = Lookalikes.replacingFirst(in: value, { Lookalikes.fullwidth($0).map(String.init) }) {
            mutations.append(Mutation(.unicode, "'\(original)' in its fullwidth form (NFKC and NFKD give the value back)", text))
        }
        if let (text, original) = Lookalikes.replacingFirst(in: value, { $0.isLetter && $0.isASCII ? String($0) + "\u{301}" : nil }) {
            mutations.append(
                Mutation(.unicode, "'\(original)' with a combining acute accent (NFD; accent-insensitive comparison gives the value back)", text)
            )
        }
        if let (text, original) = Lookalikes.replacingFirst(in: value, { Lookalikes.precomposed($0).map(String.init) }) {
            mutations.append(Mutation(.unicode, "'\(original)' precomposed with an accent (NFC)", text))
        }
        if let (text, original) = Lookalikes.replacingFirst(in: value, { Lookalikes.caseFolding($0).map(String.init) }) {
            mutations.append(Mutation(.unicode, "'\(original)' as a letter whose Unicode case mapping gives it back", text))
        }
        if let (text, original) = Lookalikes.replacingFirst(in: value, { Lookalikes.homoglyph($0).map(String.init) }) {
            mutations.append(Mutation(.unicode, "'\(original)' as a Cyrillic homoglyph (non-ASCII)", text))
        }
        if let (text, original) = Lookalikes.replacingFirst(in: value, Lookalikes.decomposed) {
            mutations.append(Mutation(.unicode, "'\(original)' decomposed (NFD of the value's NFC)", text))
        }
        return mutations
    }
}

/// Deduplication shared by the generators: each value once, and never one of the exact values.
enum Unique {
    static func mutations(_ mutations: [Mutation], excluding exact: [String]) -> [Mutation] {
        var seen: [[UInt8]] = exact.map { Array($0.utf8) }
        var sawAbsent = false
        return mutations.filter { mutation in
            guard let value = mutation.value else {
                defer { sawAbsent = true }
                return !sawAbsent
            }
            let bytes = Array(value.utf8)
            guard !seen.contains(bytes) else { return false }
            seen.append(bytes)
            return true
        }
    }
}
