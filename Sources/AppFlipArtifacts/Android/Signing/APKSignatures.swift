public import AppFlipCore

/// Every signature of an APK (or a bundle's JAR signature): each scheme's signers, and which keys are current
/// and which are past, as Android sees them.
public struct APKSignatures: Sendable, Hashable {
    /// The signers, v1 first, then v2, v3 and v3.1, each scheme's in its order.
    public let signers: [APKSigner]
    /// The IDs of the APK Signing Block's pairs, in order (empty without a block).
    public let blockIDs: [UInt32]

    public init(signers: [APKSigner], blockIDs: [UInt32]) {
        self.signers = signers
        self.blockIDs = blockIDs
    }

    /// The schemes present, in order.
    public var schemes: [SignatureScheme] { SignatureScheme.allCases.filter { scheme in signers.contains { $0.scheme == scheme } } }

    /// One scheme's signers.
    public func signers(_ scheme: SignatureScheme) -> [APKSigner] { signers.filter { $0.scheme == scheme } }

    /// The signers a platform at `sdk` verifies the APK by (nil: the newest platform): the v3.1 signer whose
    /// range covers it from Android 13 (33), else the v3 one from Android 9 (28), else every v2 signer from
    /// Android 7 (24), else every v1 signer (apksig `ApkVerifier`: the newest scheme the platform supports
    /// that is present decides).
    public func verifyingSigners(sdk: Int? = nil) -> [APKSigner] {
        let level = sdk ?? Int(Int32.max)
        for (scheme, introduced) in [(SignatureScheme.v31, 33), (.v3, 28)] where level >= introduced {
            let covering = signers(scheme).filter { $0.sdkRange?.contains(level) ?? false }
            if !covering.isEmpty { return covering }
        }
        if level >= 24, !signers(.v2).isEmpty { return signers(.v2) }
        return signers(.v1)
    }

    /// The current keys (the verifying signers' certificates) and the past ones (their lineage, without the
    /// current keys), at `sdk` or on the newest platform.
    public func history(sdk: Int? = nil) -> SigningCertificateHistory {
        let verifying = verifyingSigners(sdk: sdk)
        var current: [String] = []
        for signer in verifying where !current.contains(signer.certificate.sha256) { current.append(signer.certificate.sha256) }
        var past: [String] = []
        for node in verifying.flatMap(\.lineage) where !current.contains(node.certificate.sha256) && !past.contains(node.certificate.sha256) {
            past.append(node.certificate.sha256)
        }
        return SigningCertificateHistory(current: current, past: past)
    }
}

extension APKSignatures {
    /// Reads the v1 signature blocks of `archive` and its APK Signing Block's v2, v3 and v3.1 signers.
    public static func read(_ archive: ArtifactArchive) throws -> APKSignatures {
        var signers: [APKSigner] = []
        for entry in try archive.directory.entries(where: { JARSignature.isSignatureBlock($0.name) }) {
            signers.append(try JARSignature.signer(try archive.read(entry), file: archive.file(of: entry), name: entry.name))
        }
        guard let block = try APKSigningBlock(directory: archive.directory, limits: archive.limits) else {
            return APKSignatures(signers: signers, blockIDs: [])
        }
        signers += try schemeSigners(block)
        return APKSignatures(signers: signers, blockIDs: block.pairs.map(\.id))
    }

    /// The v2, v3 and v3.1 signers of `block`.
    public static func schemeSigners(_ block: APKSigningBlock) throws -> [APKSigner] {
        var signers: [APKSigner] = []
        let schemes: [(UInt32, SignatureScheme, String)] = [
            (APKSigningBlock.ID.v2, .v2, "APK Signature Scheme v2 block"), (APKSigningBlock.ID.v3, .v3, "APK Signature Scheme v3 block"),
            (APKSigningBlock.ID.v31, .v31, "APK Signature Scheme v3.1 block"),
        ]
        for (id, scheme, structure) in schemes {
            guard let value = block.value(id) else { continue }
            signers += try SchemeBlockReader.signers(ByteReader(value, structure: structure), scheme: scheme)
        }
        return signers
    }
}
