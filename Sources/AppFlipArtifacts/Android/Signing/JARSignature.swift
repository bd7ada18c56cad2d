import SwiftASN1
import X509

/// A v1 (JAR) signature block, `META-INF/NAME.RSA|DSA|EC`: a PKCS #7 / CMS SignedData (RFC 5652 §5) whose
/// certificates carry the signer's. Parsed with swift-asn1; the signer's certificate is the one its
/// SignerInfo names by issuer and serial number (RFC 5652 §5.3), as apksig's `V1SchemeVerifier` picks it.
/// The signature over the `.SF` file is not verified here (`apksigner verify` and `jarsigner -verify` do).
enum JARSignature {
    static let structure = "PKCS #7 SignedData"

    /// Whether an entry name is a v1 signature block: directly in `META-INF/`, ending `.RSA`, `.DSA` or `.EC`
    /// (apksig `V1SchemeVerifier`, the JAR File Specification's "Signed JAR File").
    static func isSignatureBlock(_ name: String) -> Bool {
        guard name.hasPrefix("META-INF/"), !name.dropFirst(9).contains("/") else { return false }
        return name.hasSuffix(".RSA") || name.hasSuffix(".DSA") || name.hasSuffix(".EC")
    }

    /// The signer of the block `bytes`, the entry `name` read as `entry` (`ARCHIVE!ENTRY`): its certificate
    /// first, then the other certificates. Its elements are counted before swift-asn1 builds a node for each.
    static func signer(_ bytes: [UInt8], file entry: String, name: String) throws -> APKSigner {
        try ASN1ElementCount.check(bytes, structure: structure, file: entry, base: 0)
        let parsed: (certificates: [ArraySlice<UInt8>], issuer: DistinguishedName?, serial: ArraySlice<UInt8>?)
        do {
            parsed = try signedData(try BER.parse(bytes))
        } catch let error as ArtifactError {
            throw error
        } catch {
            throw ArtifactError(structure, file: entry, offset: 0, "not a PKCS #7 SignedData: \(error)")
        }
        var certificates = try parsed.certificates.map { der in
            try SigningCertificate(der: Array(der), structure: structure, file: entry, offset: der.startIndex)
        }
        guard !certificates.isEmpty else { throw ArtifactError(structure, file: entry, offset: 0, "no certificates (Android refuses the signature)") }
        if let issuer = parsed.issuer, let serial = parsed.serial,
            let index = parsed.certificates.firstIndex(where: { Self.matches($0, issuer: issuer, serial: serial) })
        {
            certificates.insert(certificates.remove(at: index), at: 0)
        }
        return APKSigner(
            scheme: .v1,
            name: name,
            certificates: certificates,
            sdkRange: nil,
            lineage: [],
            rotationMinSDK: nil,
            rotationTargetsDevRelease: false,
            strippingProtection: [],
            digestAlgorithms: [],
            problems: []
        )
    }

    /// ContentInfo { contentType, [0] EXPLICIT SignedData }; SignedData { version, digestAlgorithms,
    /// encapContentInfo, [0] IMPLICIT certificates OPTIONAL, [1] IMPLICIT crls OPTIONAL, signerInfos }.
    private static func signedData(_ root: ASN1Node) throws -> ([ArraySlice<UInt8>], DistinguishedName?, ArraySlice<UInt8>?) {
        try BER.sequence(root, identifier: .sequence) { contentInfo in
            let type = try ASN1ObjectIdentifier(berEncoded: &contentInfo)
            guard type == ASN1ObjectIdentifier("1.2.840.113549.1.7.2") else {
                throw ArtifactError(structure, file: "", offset: 0, "content type \(type), not signedData (1.2.840.113549.1.7.2)")
            }
            return try BER.explicitlyTagged(&contentInfo, tagNumber: 0, tagClass: .contextSpecific) { content in
                try BER.sequence(content, identifier: .sequence) { fields in
                    _ = fields.next()  // version
                    _ = fields.next()  // digestAlgorithms
                    _ = fields.next()  // encapContentInfo
                    var certificates: [ArraySlice<UInt8>] = []
                    var node = fields.next()
                    if let set = node, set.identifier == ASN1Identifier(tagWithNumber: 0, tagClass: .contextSpecific),
                        case .constructed(let children) = set.content
                    {
                        certificates = children.map(\.encodedBytes)
                        node = fields.next()
                    }
                    if let crls = node, crls.identifier == ASN1Identifier(tagWithNumber: 1, tagClass: .contextSpecific) { node = fields.next() }
                    while fields.next() != nil {}
                    let signer = try node.flatMap(firstSignerIdentifier)
                    return (certificates, signer?.0, signer?.1)
                }
            }
        }
    }

    /// The issuer and serial number of the first SignerInfo { version, sid, … }, when `sid` is an
    /// IssuerAndSerialNumber.
    private static func firstSignerIdentifier(_ signerInfos: ASN1Node) throws -> (DistinguishedName, ArraySlice<UInt8>)? {
        guard case .constructed(let infos) = signerInfos.content, let first = infos.first(where: { _ in true }) else { return nil }
        return try BER.sequence(first, identifier: .sequence) { info -> (DistinguishedName, ArraySlice<UInt8>)? in
            _ = info.next()
            guard let sid = info.next(), sid.identifier == .sequence else {
                while info.next() != nil {}
                return nil
            }
            while info.next() != nil {}
            return try BER.sequence(sid, identifier: .sequence) { parts in
                guard let issuer = parts.next(), let serial = parts.next(), case .primitive(let bytes) = serial.content else {
                    throw ASN1Error.invalidASN1Object(reason: "IssuerAndSerialNumber")
                }
                return (try DistinguishedName(derEncoded: issuer), bytes)
            }
        }
    }

    private static func matches(_ der: ArraySlice<UInt8>, issuer: DistinguishedName, serial: ArraySlice<UInt8>) -> Bool {
        guard let certificate = try? Certificate(derEncoded: Array(der)) else { return false }
        return certificate.issuer == issuer && certificate.serialNumber == Certificate.SerialNumber(bytes: serial)
    }
}
