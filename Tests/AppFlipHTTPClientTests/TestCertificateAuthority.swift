import Crypto
import Foundation
import SwiftASN1
import X509

/// A certificate authority made in the test: its certificate in PEM (for `--ca-file`), and server certificates
/// it signs for any DNS names. Nothing is read from or written to the system's trust store.
struct TestCertificateAuthority: Sendable {
    /// A server certificate and its key, in PEM.
    struct ServerIdentity: Sendable {
        let certificatePEM: String
        let privateKeyPEM: String
    }

    let certificatePEM: String
    private let certificate: Certificate
    private let privateKey: P256.Signing.PrivateKey

    init(name: String = "appflip test CA") throws {
        let key = P256.Signing.PrivateKey()
        let subject = try DistinguishedName { CommonName(name) }
        let now = Date()
        certificate = try Certificate(
            version: .v3,
            serialNumber: Certificate.SerialNumber(),
            publicKey: Certificate.PublicKey(key.publicKey),
            notValidBefore: now - 3600,
            notValidAfter: now + 86_400,
            issuer: subject,
            subject: subject,
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: nil))
                Critical(KeyUsage(keyCertSign: true, cRLSign: true))
            },
            issuerPrivateKey: Certificate.PrivateKey(key)
        )
        privateKey = key
        certificatePEM = try certificate.serializeAsPEM().pemString
    }

    /// A server certificate for `names`, signed by this authority.
    func serverIdentity(for names: [String]) throws -> ServerIdentity {
        let key = P256.Signing.PrivateKey()
        let now = Date()
        let leaf = try Certificate(
            version: .v3,
            serialNumber: Certificate.SerialNumber(),
            publicKey: Certificate.PublicKey(key.publicKey),
            notValidBefore: now - 3600,
            notValidAfter: now + 86_400,
            issuer: certificate.subject,
            subject: try DistinguishedName { CommonName(names[0]) },
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.notCertificateAuthority)
                Critical(KeyUsage(digitalSignature: true))
                try ExtendedKeyUsage([.serverAuth])
                SubjectAlternativeNames(names.map { GeneralName.dnsName($0) })
            },
            issuerPrivateKey: Certificate.PrivateKey(privateKey)
        )
        return ServerIdentity(certificatePEM: try leaf.serializeAsPEM().pemString, privateKeyPEM: key.pemRepresentation)
    }

    /// Writes the authority's certificate to a PEM file for `--ca-file`, in `directory`.
    func writeCertificate(in directory: URL) throws -> String {
        let url = directory.appendingPathComponent("test-ca.pem")
        try Data(certificatePEM.utf8).write(to: url)
        return url.path
    }
}
