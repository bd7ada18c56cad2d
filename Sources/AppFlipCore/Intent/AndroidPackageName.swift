/// An Android application id, held to the rule the package parser applies to a manifest's `package`
/// (AOSP `FrameworkParsingPackageUtils.validateName`): at least two segments separated by dots, each a
/// letter followed by letters, digits or underscores. Compared exactly, never folded.
public enum AndroidPackageName {
    /// The longest package name appflipd takes, in bytes (Android refuses longer ones as file names).
    public static let maxBytes = 255

    /// Why `name` is not a package name, or nil.
    public static func problem(with name: String) -> String? {
        guard !name.isEmpty else { return "must be a non-empty package name, e.g. com.example.app" }
        guard name.utf8.count <= maxBytes else { return "is longer than \(maxBytes) bytes" }
        let segments = name.split(separator: ".", omittingEmptySubsequences: false)
        guard segments.count >= 2 else { return "\"\(name)\" is not a package name: it needs at least one dot (com.example.app)" }
        for segment in segments {
            guard let first = segment.utf8.first, isLetter(first) else {
                return "\"\(name)\" is not a package name: each dot-separated part starts with a letter"
            }
            guard segment.utf8.allSatisfy({ isLetter($0) || isDigit($0) || $0 == UInt8(ascii: "_") }) else {
                return "\"\(name)\" is not a package name: only letters, digits and _ between the dots"
            }
        }
        return nil
    }

    private static func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z") }
    private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
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
