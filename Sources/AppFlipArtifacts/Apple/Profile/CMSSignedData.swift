import SwiftASN1
import X509

/// The parts of a CMS SignedData (RFC 5652 §5.1) the readers need: the encapsulated content and the
/// certificates. swift-certificates 1.21.1 keeps its CMS types behind `@_spi(CMS)`, and its `CMSSignature`
/// shows the signers but not the content, so this walks the structure with swift-asn1's public BER parser,
/// which also reads the indefinite lengths Apple's provisioning profiles are written with.
///
///     ContentInfo ::= SEQUENCE { contentType OBJECT IDENTIFIER, content [0] EXPLICIT SignedData }
///     SignedData ::= SEQUENCE { version, digestAlgorithms SET,
///         encapContentInfo SEQUENCE { eContentType OBJECT IDENTIFIER, eContent [0] EXPLICIT OCTET STRING OPTIONAL },
///         certificates [0] IMPLICIT SET OF Certificate OPTIONAL, crls [1] IMPLICIT OPTIONAL, signerInfos SET }
///
/// The signature is not verified: appflipd holds no Apple root, and what a profile allows is read, not trusted.
struct CMSSignedData {
    private static let structure = "CMS SignedData"
    private static let signedData: ASN1ObjectIdentifier = [1, 2, 840, 113_549, 1, 7, 2]
    private static let tag0 = ASN1Identifier(tagWithNumber: 0, tagClass: .contextSpecific)

    /// The encapsulated content, nil for a detached signature (a code signature's CMS blob).
    let content: [UInt8]?
    /// The file offset of the content's first byte (`firstContentByte`).
    let contentOffset: Int?
    /// The certificates the signer included, with the DER bytes each was read from.
    let certificates: [(certificate: Certificate, der: [UInt8])]

    /// Reads `bytes`, read at `base` in `file`.
    init(bytes: [UInt8], file: String, base: Int) throws(ArtifactError) {
        func fail(_ message: String, _ node: ASN1Node? = nil) -> ArtifactError {
            ArtifactError(Self.structure, file: file, offset: base + (node?.encodedBytes.startIndex ?? 0), message)
        }
        try ASN1ElementCount.check(bytes, structure: Self.structure, file: file, base: base)
        let root: ASN1Node
        do { root = try BER.parse(bytes) } catch { throw fail("not BER-encoded ASN.1: \(error)") }
        guard root.identifier == .sequence, let top = Self.children(of: root), top.count == 2 else {
            throw fail("a ContentInfo is a SEQUENCE of a content type and a content")
        }
        guard (try? ASN1ObjectIdentifier(berEncoded: top[0])) == Self.signedData else {
            throw fail("the content type is not signed data (1.2.840.113549.1.7.2)", top[0])
        }
        guard top[1].identifier == Self.tag0, let wrapped = Self.children(of: top[1]), wrapped.count == 1,
            wrapped[0].identifier == .sequence, let fields = Self.children(of: wrapped[0]), fields.count >= 4
        else { throw fail("the content is not a SignedData SEQUENCE in [0]", top[1]) }
        guard let encapsulated = Self.children(of: fields[2]), fields[2].identifier == .sequence, !encapsulated.isEmpty else {
            throw fail("the encapsulated content info is not a SEQUENCE", fields[2])
        }
        if encapsulated.count >= 2, encapsulated[1].identifier == Self.tag0, let inner = Self.children(of: encapsulated[1]),
            inner.count == 1
        {
            do {
                let octets = try ASN1OctetString(berEncoded: inner[0])
                self.content = Array(octets.bytes)
                self.contentOffset = base + Self.firstContentByte(inner[0])
            } catch {
                throw fail("the encapsulated content is not an OCTET STRING: \(error)", inner[0])
            }
        } else {
            self.content = nil
            self.contentOffset = nil
        }
        var certificates: [(Certificate, [UInt8])] = []
        if fields[3].identifier == Self.tag0, let encoded = Self.children(of: fields[3]) {
            for node in encoded where node.identifier == .sequence {
                do {
                    certificates.append((try Certificate(derEncoded: node), Array(node.encodedBytes)))
                } catch {
                    throw fail("a certificate cannot be read: \(Self.reason(error))", node)
                }
            }
        }
        self.certificates = certificates
    }

    /// Why swift-certificates refused a certificate: an ASN.1 error says what and where; a crypto library's error
    /// carries codes from a per-thread queue that earlier failures leave behind, so only its kind is kept, and the
    /// same bytes always give the same message.
    static func reason(_ error: any Error) -> String {
        error is ASN1Error ? "\(error)" : "its key or signature cannot be read (\(type(of: error)))"
    }

    /// Where the content's first byte lies: offsets inside the content count from there, exactly when the
    /// content is one OCTET STRING, as in the profiles Apple and openssl write (BER may split it into pieces).
    private static func firstContentByte(_ node: ASN1Node) -> Int {
        switch node.content {
        case .primitive(let bytes): bytes.startIndex
        case .constructed(let nodes): nodes.first { _ in true }.map(firstContentByte) ?? node.encodedBytes.endIndex
        }
    }

    private static func children(of node: ASN1Node) -> [ASN1Node]? {
        guard case .constructed(let nodes) = node.content else { return nil }
        return Array(nodes)
    }
}
