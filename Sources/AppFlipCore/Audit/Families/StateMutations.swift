/// The states the audit sends to prove that a partner gives `state` back byte for byte (RFC 6749 §4.1.2):
/// a plain state with, added, each kind of character a URI reserves or a lenient decoder changes, each
/// Unicode normalisation form of a non-ASCII state, and lengths at and past the limits implementations
/// commonly set. Every one differs from the plain state and from every other byte for byte, and Swift's
/// `==` (canonical equivalence) must not be what compares them.
public enum StateMutations {
    /// The lengths implementations commonly cap a parameter or a URL at: each is sent at the limit and one
    /// byte past it.
    public static let lengthLimits = [512, 1024, 2048]

    /// The states for `base` (a plain state, say `appflip-audit-state`), each with what it holds.
    public static func all(of base: String) -> [Mutation] {
        let accented = base + "-\u{E9}t\u{E9}-\u{FC}"
        let decomposed = base + "-e\u{301}te\u{301}-u\u{308}"
        var states = [
            Mutation(.reserved, "plus, slash, equals (standard base64)", base + "+a/b=="),
            Mutation(.reserved, "ampersand and equals", base + "&a=b"),
            Mutation(.reserved, "hash and question mark", base + "#a?b"),
            Mutation(.reserved, "percent", base + "100%"),
            Mutation(.percentEncoding, "percent before non-hex", base + "%zz%4"),
            Mutation(.percentEncoding, "percent-encoded text, kept literally", base + "%41%2B"),
            Mutation(.doublePercentEncoding, "percent-encoded twice, kept literally", base + "%2541"),
            Mutation(.reserved, "space", base + " a b"),
            Mutation(.reserved, "quotes, angle brackets, backslash", base + "\"a'b<c>\\"),
            Mutation(.letterCase, "mixed case", base + "-MiXeD"),
            Mutation(.unicode, "non-ASCII, NFC", accented),
            Mutation(.unicode, "non-ASCII, the same text NFD (canonically equivalent, other bytes)", decomposed),
            Mutation(.unicode, "a compatibility ligature (NFKC and NFKD change it)", base + "-\u{FB01}n"),
            Mutation(.unicode, "fullwidth letters (NFKC and NFKD change them)", base + "-\u{FF21}\u{FF22}"),
            Mutation(.unicode, "non-BMP (an emoji)", base + "-\u{1F600}"),
            Mutation(.unicode, "CJK", base + "-\u{65E5}\u{672C}"),
            Mutation(.trailing, "a trailing space", base + " "),
            Mutation(.trailing, "a trailing '.'", base + "."),
        ]
        for limit in lengthLimits {
            states.append(Mutation(.length, "\(limit) bytes", filled(base, to: limit)))
            states.append(Mutation(.length, "\(limit + 1) bytes", filled(base, to: limit + 1)))
        }
        return Unique.mutations(states, excluding: [base])
    }

    /// `base` followed by URL-safe filler with reserved characters among it, `length` bytes in all.
    static func filled(_ base: String, to length: Int) -> String {
        let filler = Array("Zx+/=%-_.~")
        var text = base
        var index = 0
        while text.utf8.count < length {
            text.append(filler[index % filler.count])
            index += 1
        }
        return text
    }
}
