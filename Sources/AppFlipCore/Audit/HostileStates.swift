/// The states the audit sends to prove they come back byte for byte: each holds characters that must be
/// percent-encoded on the way back (RFC 3986 §2.1), or that a lenient decoder turns into something else.
public enum HostileStates {
    /// Each state with a label for the report (a state itself is no secret: Google makes it up).
    public static let all: [(label: String, state: String)] = [
        ("plus, slash, equals (standard base64)", "a+b/c=="),
        ("ampersand and equals", "a&b=c"),
        ("hash and question mark", "a#b?c"),
        ("percent", "100%"),
        ("percent before non-hex", "%zz%4"),
        ("percent-encoded text, kept literally", "%41%2B"),
        ("space", "a b"),
        ("quotes", "\"a'b\""),
        ("non-ASCII", "état-ü-日本"),
        ("emoji", "state-😀"),
        ("long (512 bytes)", String(repeating: "Zx+/=%", count: 85) + "ab"),
    ]
}
