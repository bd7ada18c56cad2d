/// The signers of an APK Signature Scheme v2, v3 or v3.1 block (source.android.com/docs/security/features/
/// apksigning/v2 "APK Signature Scheme v2 Block" and v3 "APK Signature Scheme v3 Block"; apksig's
/// `V2SchemeVerifier.parseSigner` and `V3SchemeVerifier.parseSigner`): length-prefixed sequences of
/// length-prefixed signers, each with its signed data (digests, certificates, for v3 the SDK range, and
/// additional attributes), its signatures and its public key. v3.1 has v3's layout under its own ID.
enum SchemeBlockReader {
    /// The additional attributes' IDs (apksig `V3SchemeConstants`, `V2SchemeConstants`).
    enum Attribute {
        static let proofOfRotation: UInt32 = 0x3ba0_6f8c
        static let rotationMinSDK: UInt32 = 0x559f_8b02
        static let rotationOnDevRelease: UInt32 = 0xc2a6_b3ba
        static let strippingProtection: UInt32 = 0xbeef_f00d
    }

    /// Every signer of the block `value`.
    static func signers(_ value: ByteReader, scheme: SignatureScheme) throws -> [APKSigner] {
        var offset = 0
        let list = try lengthPrefixed(value, &offset, "the signer list")
        let signers = try sequence(list, "a signer").enumerated().map { index, signer in
            try readSigner(ByteReader(signer, structure: "\(value.structure) signer #\(index + 1)"), scheme: scheme)
        }
        guard !signers.isEmpty else { throw value.error("no signers (Android refuses the APK)", at: 0) }
        return signers
    }

    private static func readSigner(_ signer: ByteReader, scheme: SignatureScheme) throws -> APKSigner {
        var offset = 0
        let signedData = try lengthPrefixed(signer, &offset, "the signed data")
        var sdkRange: ClosedRange<Int>?
        if scheme != .v2 {
            sdkRange = try range(signer, at: offset)
            offset += 8
        }
        _ = try lengthPrefixed(signer, &offset, "the signatures")
        let publicKey = try lengthPrefixed(signer, &offset, "the public key")

        var at = 0
        let digests = try sequence(try lengthPrefixed(signedData, &at, "the digests"), "a digest").map { try $0.uint32(at: 0) }
        let certificates = try sequence(try lengthPrefixed(signedData, &at, "the certificates"), "a certificate").map { certificate in
            try SigningCertificate(
                der: Array(try certificate.bytes(at: 0, count: certificate.count, "")),
                structure: signer.structure,
                file: signer.file,
                offset: certificate.base
            )
        }
        guard !certificates.isEmpty else { throw signedData.error("no certificates (Android refuses the signer)", at: 0) }
        var problems: [String] = []
        if scheme != .v2 {
            let signedRange = try range(signedData, at: at)
            at += 8
            if signedRange != sdkRange {
                problems.append("the SDK range in the signed data (\(signedRange)) differs from the signer's (\(sdkRange.map { "\($0)" } ?? "none"))")
            }
        }
        let attributes = try sequence(try lengthPrefixed(signedData, &at, "the additional attributes"), "an attribute")
        if let info = certificates[0].publicKeyInfo, !info.elementsEqual(try publicKey.bytes(at: 0, count: publicKey.count, "")) {
            problems.append(
                "the signer's public key is not its certificate's (apksig: \"Public key mismatch between certificate and signature record\")"
            )
        }
        return try signerWithAttributes(
            scheme: scheme,
            certificates: certificates,
            sdkRange: sdkRange,
            digests: digests,
            attributes: attributes,
            problems: problems
        )
    }

    /// The signer, with what its additional attributes say: the lineage, the rotation bounds, stripping protection.
    private static func signerWithAttributes(
        scheme: SignatureScheme,
        certificates: [SigningCertificate],
        sdkRange: ClosedRange<Int>?,
        digests: [UInt32],
        attributes: [ByteReader],
        problems: [String]
    ) throws -> APKSigner {
        var problems = problems
        var lineage: [LineageNode] = []
        var rotationMinSDK: Int?
        var devRelease = false
        var stripping: [Int] = []
        for attribute in attributes {
            let id = try attribute.uint32(at: 0)
            let value = try attribute.reader(at: 4, count: attribute.count - 4, "the attribute's value")
            switch id {
            case Attribute.proofOfRotation where scheme != .v2:
                lineage = try ProofOfRotation.read(ByteReader(value, structure: "\(attribute.structure) proof-of-rotation"))
                if let last = lineage.last, last.certificate != certificates[0] {
                    problems.append(
                        "the proof-of-rotation lineage ends at \(last.certificate.sha256), not at the signer's certificate (apksig V3_SIG_POR_CERT_MISMATCH)"
                    )
                }
            case Attribute.rotationMinSDK where scheme == .v3: rotationMinSDK = Int(try value.uint32(at: 0))
            case Attribute.rotationOnDevRelease where scheme == .v31: devRelease = true
            case Attribute.strippingProtection where scheme == .v2: stripping.append(Int(try value.uint32(at: 0)))
            default: break
            }
        }
        return APKSigner(
            scheme: scheme,
            name: nil,
            certificates: certificates,
            sdkRange: sdkRange,
            lineage: lineage,
            rotationMinSDK: rotationMinSDK,
            rotationTargetsDevRelease: devRelease,
            strippingProtection: stripping,
            digestAlgorithms: digests,
            problems: problems
        )
    }

    private static func range(_ reader: ByteReader, at offset: Int) throws -> ClosedRange<Int> {
        let low = Int(try reader.uint32(at: offset))
        let high = Int(try reader.uint32(at: offset + 4))
        guard low <= high else { throw reader.error("minSdkVersion \(low) is over maxSdkVersion \(high)", at: offset) }
        return low...high
    }

    /// A 4-byte length and that many bytes, at `offset`, which it moves past.
    static func lengthPrefixed(_ reader: ByteReader, _ offset: inout Int, _ what: String) throws -> ByteReader {
        let length = Int(try reader.uint32(at: offset))
        guard length <= reader.count - offset - 4 else {
            throw reader.error("\(what) declares \(length) bytes, \(reader.count - offset - 4) are left", at: offset)
        }
        let value = try reader.reader(at: offset + 4, count: length, what)
        offset += 4 + length
        return value
    }

    /// The length-prefixed elements filling `reader`.
    static func sequence(_ reader: ByteReader, _ what: String) throws -> [ByteReader] {
        var elements: [ByteReader] = []
        var offset = 0
        while offset < reader.count { elements.append(try lengthPrefixed(reader, &offset, what)) }
        return elements
    }
}
