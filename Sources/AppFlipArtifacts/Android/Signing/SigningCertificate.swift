import AppFlipCore
import Crypto
import SwiftASN1
import X509

/// A signing certificate as Android compares it: the SHA-256 of its DER encoding, exactly as the signature
/// carries it (apksig's `GuaranteedEncodedFormX509Certificate`), in ``CertificateFingerprint``'s upper-case
/// colon form: what `apksigner verify --print-certs` prints without the colons and assetlinks.json writes
/// with them.
public struct SigningCertificate: Sendable, Hashable {
    /// The certificate's DER bytes.
    public let der: [UInt8]
    /// SHA-256 of ``der``: `14:6D:E9:…`.
    public let sha256: String
    /// The subject's distinguished name, as swift-certificates prints it.
    public let subject: String?
    /// The subject public key's algorithm: `RSA`, `EC`, `DSA`, `Ed25519`, or its OID.
    public let keyAlgorithm: String?
    /// The DER SubjectPublicKeyInfo, as encoded in the certificate.
    public let publicKeyInfo: [UInt8]?

    /// Fingerprints `der` and reads its subject and key with swift-asn1 (so that a DSA key, which
    /// swift-certificates does not load, still names its subject); a certificate that does not parse is
    /// refused, as Android's `CertificateFactory` refuses it.
    public init(der: [UInt8], structure: String, file: String, offset: Int?) throws {
        self.der = der
        sha256 = Self.fingerprint(der)
        do {
            let fields = try Self.fields(der)
            subject = String(describing: try DistinguishedName(derEncoded: fields.subject))
            keyAlgorithm = fields.algorithm
            publicKeyInfo = fields.publicKeyInfo
        } catch {
            throw ArtifactError(
                structure,
                file: file,
                offset: offset,
                "a certificate that is not X.509 DER (\(der.count) bytes, SHA-256 \(sha256)): \(error)"
            )
        }
    }

    /// SHA-256 of `bytes` as 32 upper-case hex pairs separated by colons.
    public static func fingerprint(_ bytes: some Sequence<UInt8>) -> String {
        SHA256.hash(data: Array(bytes)).map { byte in
            let hex = String(byte, radix: 16, uppercase: true)
            return byte < 0x10 ? "0" + hex : hex
        }.joined(separator: ":")
    }

    /// The subject name node, the key algorithm and the SubjectPublicKeyInfo bytes of a DER certificate
    /// (RFC 5280 §4.1: `tbsCertificate` is version, serial, signature, issuer, validity, subject, key).
    private static func fields(_ der: [UInt8]) throws -> (subject: ASN1Node, algorithm: String, publicKeyInfo: [UInt8]) {
        let root = try DER.parse(der)
        return try DER.sequence(root, identifier: .sequence) { certificate in
            guard let tbs = certificate.next() else { throw ASN1Error.invalidASN1Object(reason: "no tbsCertificate") }
            while certificate.next() != nil {}
            return try DER.sequence(tbs, identifier: .sequence) { fields in
                var nodes: [ASN1Node] = []
                while let node = fields.next() { nodes.append(node) }
                let start = nodes.first?.identifier == ASN1Identifier(tagWithNumber: 0, tagClass: .contextSpecific) ? 1 : 0
                guard nodes.count >= start + 6 else { throw ASN1Error.invalidASN1Object(reason: "a short tbsCertificate") }
                let key = nodes[start + 5]
                let oid = try DER.sequence(key, identifier: .sequence) { keyInfo in
                    guard let algorithm = keyInfo.next() else { throw ASN1Error.invalidASN1Object(reason: "no key algorithm") }
                    while keyInfo.next() != nil {}
                    return try DER.sequence(algorithm, identifier: .sequence) { parts in
                        let oid = try ASN1ObjectIdentifier(derEncoded: &parts)
                        while parts.next() != nil {}
                        return oid
                    }
                }
                return (nodes[start + 4], Self.name(of: oid), Array(key.encodedBytes))
            }
        }
    }

    private static func name(of oid: ASN1ObjectIdentifier) -> String {
        switch oid.description {
        case "1.2.840.113549.1.1.1": "RSA"
        case "1.2.840.10045.2.1": "EC"
        case "1.2.840.10040.4.1": "DSA"
        case "1.3.101.112": "Ed25519"
        default: oid.description
        }
    }
}
