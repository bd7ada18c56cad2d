/// A signing certificate's SHA-256 fingerprint as Digital Asset Links writes it: 32 bytes as upper-case hex
/// pairs separated by colons, the form `keytool -list -v` and Play Console print.
///
/// Google's verifier drops a statement whose fingerprint has any other form ("malformed cert",
/// comptest2311–2314; developer.android.com/training/app-links/troubleshoot: "The signature should be
/// uppercase"). AOSP's StatementService does not check the form; it compares each string with the
/// device's own upper-case fingerprints (`utils/StatementUtils.kt` `bytesToHexString`,
/// `retriever/AndroidAppAssetMatcher.java`), so any other spelling parses and never matches.
public enum CertificateFingerprint {
    /// What is wrong with a fingerprint, named as the mistake it usually is.
    public enum Problem: Sendable, Hashable {
        case empty
        /// Lower-case (or mixed-case) hex of the right length.
        case lowercase
        /// 20 bytes: the SHA-1 fingerprint, which keytool prints beside the SHA-256 one.
        case sha1Length
        /// A well-formed fingerprint followed by something else (a `.`, a space, a comma).
        case trailingCharacter(Character)
        /// keytool's `SHA256: ` label copied with the value.
        case label
        /// Hex pairs, but neither 32 nor 20 of them.
        case wrongLength(bytes: Int)
        /// 64 hex digits without the colons.
        case noColons
        /// Text that is not hex at all, such as a template's placeholder.
        case placeholder
    }

    /// Nil when `fingerprint` is 32 upper-case hex pairs separated by colons.
    public static func problem(_ fingerprint: String) -> Problem? {
        if isWellFormed(fingerprint, uppercaseOnly: true) { return nil }
        if fingerprint.isEmpty { return .empty }
        if isWellFormed(fingerprint, uppercaseOnly: false) { return .lowercase }
        if let last = fingerprint.last, isWellFormed(String(fingerprint.dropLast()), uppercaseOnly: false) {
            return .trailingCharacter(last)
        }
        let lowered = fingerprint.lowercased()
        for label in ["sha256:", "sha-256:", "sha256 :"] where lowered.hasPrefix(label) {
            return .label
        }
        if let count = hexPairCount(fingerprint) {
            return count == 20 ? .sha1Length : .wrongLength(bytes: count)
        }
        if fingerprint.utf8.count == 64, fingerprint.utf8.allSatisfy({ Hex.value(of: $0) != nil }) { return .noColons }
        return .placeholder
    }

    private static func isWellFormed(_ text: String, uppercaseOnly: Bool) -> Bool {
        guard hexPairCount(text) == 32 else { return false }
        return !uppercaseOnly || !text.utf8.contains { (UInt8(ascii: "a")...UInt8(ascii: "f")).contains($0) }
    }

    /// The number of colon-separated hex pairs, or nil if the text is not such a list.
    private static func hexPairCount(_ text: String) -> Int? {
        let pairs = text.utf8.split(separator: UInt8(ascii: ":"), omittingEmptySubsequences: false)
        for pair in pairs {
            guard pair.count == 2, pair.allSatisfy({ Hex.value(of: $0) != nil }) else { return nil }
        }
        return pairs.count
    }
}
