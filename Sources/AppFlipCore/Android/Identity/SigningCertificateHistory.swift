/// An app's signing keys over time, as SHA-256 fingerprints in ``CertificateFingerprint``'s form: the keys
/// that sign it now, and the keys it rotated away from (APK Signature Scheme v3's proof-of-rotation
/// lineage, oldest first). Android matches a statement against both (`SigningInfo.getSigningCertificateHistory`,
/// StatementService `utils/StatementUtils.kt` `getCertFingerprintsFromPackageManager`), so an assetlinks.json
/// that names only a past key still verifies, and one that names only the upload key of a bundle does not.
public struct SigningCertificateHistory: Sendable, Hashable, Codable {
    /// The fingerprints of the keys that sign the app now: one, or several for an app signed by several
    /// signers (which cannot rotate).
    public var current: [String]
    /// The fingerprints of the keys the current one rotated from, oldest first.
    public var past: [String]

    public init(current: [String], past: [String] = []) {
        self.current = current
        self.past = past
    }

    /// What a fingerprint is to this app.
    public enum Role: String, Sendable, Hashable, Codable {
        case current
        case past
    }

    /// Whether `fingerprint` is a current or a past key, compared exactly, or nil.
    public func role(of fingerprint: String) -> Role? {
        if current.contains(fingerprint) { return .current }
        if past.contains(fingerprint) { return .past }
        return nil
    }

    /// Every fingerprint Android compares statements with, past keys first, each once.
    public var all: [String] {
        var seen: [String] = []
        for fingerprint in past + current where !seen.contains(fingerprint) { seen.append(fingerprint) }
        return seen
    }
}
