/// The signature schemes of an APK (source.android.com/docs/security/features/apksigning).
public enum SignatureScheme: String, Sendable, Hashable, Codable, CaseIterable {
    /// JAR signing: `META-INF/*.RSA|DSA|EC`, a PKCS #7 SignedData.
    case v1
    /// APK Signature Scheme v2 (Android 7.0).
    case v2
    /// APK Signature Scheme v3 (Android 9), with the proof-of-rotation lineage.
    case v3
    /// APK Signature Scheme v3.1 (Android 13): the rotated signer, for SDK versions from its `minSdk`.
    case v31 = "v3.1"
}

/// One signer of one scheme: its certificate chain (the signing certificate first), and for v3 and v3.1 the
/// SDK range it signs for, its proof-of-rotation lineage and its rotation attributes.
public struct APKSigner: Sendable, Hashable {
    public let scheme: SignatureScheme
    /// For v1, the signature file's name (`META-INF/CERT.RSA`); apksigner names v1 signers by it.
    public let name: String?
    /// The signing certificate and the rest of the chain the signer carries.
    public let certificates: [SigningCertificate]
    /// v3 and v3.1: the platform versions this signer is for (`minSdk`, `maxSdk`, inclusive).
    public let sdkRange: ClosedRange<Int>?
    /// v3 and v3.1: the lineage from the first signing key to this one, oldest first.
    public let lineage: [LineageNode]
    /// v3: the SDK version from which the v3.1 block's signer takes over (`ROTATION_MIN_SDK_VERSION_ATTR_ID`).
    public let rotationMinSDK: Int?
    /// v3.1: the rotation targets a development release (`ROTATION_ON_DEV_RELEASE_ATTR_ID`).
    public let rotationTargetsDevRelease: Bool
    /// v2: the schemes the signer says must also be present (`STRIPPING_PROTECTION_ATTR_ID`).
    public let strippingProtection: [Int]
    /// The signature algorithms of its digests (`0x0103` RSASSA-PKCS1-v1_5 with SHA2-256 …).
    public let digestAlgorithms: [UInt32]
    /// Why Android would refuse the signer even though it parses: the signer's public key is not its
    /// certificate's, or its lineage does not end at its certificate.
    public let problems: [String]

    /// The signing certificate.
    public var certificate: SigningCertificate { certificates[0] }
}

/// One certificate of a proof-of-rotation lineage, with the capabilities it keeps after rotation
/// (apksig `SigningCertificateLineage.SignerCapabilities`).
public struct LineageNode: Sendable, Hashable {
    public let certificate: SigningCertificate
    /// The raw capability flags: 1 installed data, 2 shared user id, 4 permission, 8 rollback, 16 auth.
    public let flags: UInt32

    /// The capabilities' names.
    public var capabilities: [String] {
        [(1, "installed-data"), (2, "shared-uid"), (4, "permission"), (8, "rollback"), (16, "auth")].compactMap { bit, name in
            flags & UInt32(bit) != 0 ? name : nil
        }
    }
}
