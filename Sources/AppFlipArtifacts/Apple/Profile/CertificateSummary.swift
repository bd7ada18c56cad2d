import Crypto
public import Foundation
import SwiftASN1
import X509

/// What identifies a certificate in a report: Apple's signing certificates name the kind and the person in the
/// common name (`Apple Development: Name (ID)`, `Apple Distribution: Team (TEAMID)`) and the team in the
/// organizational unit.
public struct CertificateSummary: Sendable, Hashable {
    /// The subject, as RFC 4514 text.
    public let subject: String
    public let commonName: String?
    /// The organizational unit: the team identifier in Apple's certificates.
    public let organizationalUnit: String?
    public let organization: String?
    public let notValidBefore: Date
    public let notValidAfter: Date
    /// The SHA-256 of the DER certificate, lower-case hex.
    public let sha256: String

    init(_ certificate: Certificate, der: [UInt8]) {
        func first(_ type: ASN1ObjectIdentifier) -> String? {
            certificate.subject.lazy.flatMap { $0 }.first { $0.type == type }.flatMap { String($0.value) }
        }
        self.subject = String(describing: certificate.subject)
        self.commonName = first(.RDNAttributeType.commonName)
        self.organizationalUnit = first(.RDNAttributeType.organizationalUnitName)
        self.organization = first(.RDNAttributeType.organizationName)
        self.notValidBefore = certificate.notValidBefore
        self.notValidAfter = certificate.notValidAfter
        self.sha256 = SHA256.hash(data: der).map { String(format: "%02x", $0) }.joined()
    }

    /// Reads a DER certificate, as a profile's `DeveloperCertificates` holds them.
    init(der: [UInt8], file: String, offset: Int?) throws(ArtifactError) {
        do {
            self.init(try Certificate(derEncoded: der), der: der)
        } catch {
            throw ArtifactError("certificate", file: file, offset: offset, "cannot be read: \(CMSSignedData.reason(error))")
        }
    }
}
