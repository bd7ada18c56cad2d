/// An Android application id, held to the rule the package parser applies to a manifest's `package`
/// (AOSP `ParsingPackageUtils.validateName`, `FrameworkParsingPackageUtils` since Android 14): ASCII letters,
/// digits, `_` and `.`, at least one `.`, and no digit or `_` at the start or right after a `.`. Compared
/// exactly, never folded.
public enum AndroidPackageName {
    /// The longest package name appflipd takes, in bytes (Android refuses longer ones as file names).
    public static let maxBytes = 255

    /// Why `name` is not a package name, in the parser's words, or nil.
    public static func problem(with name: String) -> String? {
        guard !name.isEmpty else { return "must be a non-empty package name, e.g. com.example.app" }
        guard name.utf8.count <= maxBytes else { return "is longer than \(maxBytes) bytes" }
        var hasSeparator = false
        var front = true
        for byte in name.utf8 {
            if (byte | 0x20) >= UInt8(ascii: "a"), (byte | 0x20) <= UInt8(ascii: "z") {
                front = false
            } else if !front, (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "_") {
                continue
            } else if byte == UInt8(ascii: ".") {
                hasSeparator = true
                front = true
            } else {
                let character = byte < 0x80 ? String(UnicodeScalar(byte)) : "non-ASCII"
                return "\"\(name)\" is not a package name: bad character '\(character)'"
            }
        }
        return hasSeparator ? nil : "\"\(name)\" is not a package name: it must have at least one '.' separator"
    }
}

/// The SHA-256 fingerprint of an app's signing certificate, as `keytool -list -v` and Play Console print it
/// and as Digital Asset Links' `sha256_cert_fingerprints` spells it: 32 upper-case hex pairs joined by
/// colons. One spelling, so that two fingerprints compare exactly as strings.
public enum CertificateFingerprint {
    /// Why `fingerprint` is not in that spelling, or nil.
    public static func problem(with fingerprint: String) -> String? {
        let pairs = fingerprint.split(separator: ":", omittingEmptySubsequences: false)
        let isUpperHex: (UInt8) -> Bool = { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x46) }
        guard pairs.count == 32, pairs.allSatisfy({ $0.utf8.count == 2 && $0.utf8.allSatisfy(isUpperHex) }) else {
            return "is not a SHA-256 certificate fingerprint: 32 upper-case hex pairs joined by colons (AB:CD:…)"
        }
        return nil
    }
}
