import Foundation
import Testing

@testable import AppFlipArtifacts

/// Provisioning profiles signed by `openssl cms` over Apple's property-list layout, read back and held against
/// what openssl itself finds inside them.
@Suite struct ProvisioningProfileTests {
    static let appID = AppleAppID(team: "ABCDE12345", bundle: "com.example.demo")

    @Test(arguments: [
        ("development", ProfileKind.development, 3, false),
        ("adhoc", ProfileKind.adHoc, 3, false),
        ("enterprise", ProfileKind.enterprise, 0, true),
        ("appstore", ProfileKind.appStore, 0, false),
        ("expired", ProfileKind.development, 3, false),
    ])
    func readsEachKind(name: String, kind: ProfileKind, devices: Int, allDevices: Bool) async throws {
        let path = try await AppleArtifactFixtures.path("\(name).mobileprovision")
        let profile = try ProvisioningProfile(bytes: try await AppleArtifactFixtures.bytes("\(name).mobileprovision"), file: path)
        #expect(profile.kind == kind)
        #expect((profile.provisionedDevices ?? []).count == devices)
        #expect(profile.provisionsAllDevices == allDevices)
        #expect(profile.appID == Self.appID)
        #expect(profile.teamIdentifiers == ["ABCDE12345"])
        #expect(profile.applicationIdentifierPrefixes == ["ABCDE12345"])
        #expect(profile.entitlements.teamIdentifier == "ABCDE12345")
        #expect(profile.entitlements.associatedDomains == .anyDomain)
        #expect(profile.entitlements.getTaskAllow == (kind == .development))
        #expect(profile.name == "Demo \(name)")

        // openssl verifies the same structure and extracts the same property list.
        let content = try await ArtifactTools.output(
            "openssl",
            ["cms", "-verify", "-noverify", "-inform", "DER", "-in", path, "-out", "/dev/stdout"]
        )
        let expected = try #require(try PropertyListSerialization.propertyList(from: Data(content.utf8), format: nil) as? [String: Any])
        #expect(profile.uuid == expected["UUID"] as? String)
        #expect(profile.expirationDate == expected["ExpirationDate"] as? Date)
        #expect(profile.creationDate == expected["CreationDate"] as? Date)
        #expect(profile.provisionedDevices == expected["ProvisionedDevices"] as? [String])
    }

    @Test func expiryIsJudgedAtTheGivenTime() async throws {
        for (name, expired) in [("expired", true), ("development", false)] {
            let profile = try ProvisioningProfile(bytes: try await AppleArtifactFixtures.bytes("\(name).mobileprovision"), file: name)
            #expect(profile.isExpired(at: Date()) == expired, "\(name)")
            let expiry = try #require(profile.expirationDate)
            #expect(profile.isExpired(at: expiry))
            #expect(!profile.isExpired(at: expiry.addingTimeInterval(-1)))
        }
    }

    /// Apple writes profiles with indefinite lengths and a constructed OCTET STRING; `openssl cms -stream` does too.
    @Test func readsIndefiniteLengthBERAsAppleWritesIt() async throws {
        let ber = try await AppleArtifactFixtures.bytes("appstore.mobileprovision")
        #expect(Array(ber.prefix(2)) == [0x30, 0x80])
        let der = try await AppleArtifactFixtures.bytes("adhoc.mobileprovision")
        #expect(der[1] != 0x80)
        #expect(try ProvisioningProfile(bytes: ber, file: "appstore").kind == .appStore)
    }

    @Test func summarizesTheCertificatesAsOpenSSLDoes() async throws {
        let profile = try ProvisioningProfile(bytes: try await AppleArtifactFixtures.bytes("development.mobileprovision"), file: "development")
        let developer = try #require(profile.developerCertificates.first)
        #expect(developer.commonName == "Apple Development: Test Developer (DEVTEAM001)")
        #expect(developer.organizationalUnit == "ABCDE12345")
        #expect(developer.organization == "Example Inc.")
        let fingerprint = try await ArtifactTools.output(
            "openssl",
            ["x509", "-noout", "-fingerprint", "-sha256", "-in", try await AppleArtifactFixtures.path("pki/developer.pem")]
        )
        #expect(fingerprint.lowercased().replacingOccurrences(of: ":", with: "").contains(developer.sha256))
        #expect(profile.signerCertificates.map(\.commonName).contains("appflipd test iPhone OS Provisioning Profile Signing"))
    }

    /// Apple's profiles do not name their kind; devices, all devices and get-task-allow decide it (TN3125).
    @Test(arguments: [
        (true, false, false, ProfileKind.enterprise),
        (true, true, true, ProfileKind.enterprise),
        (false, true, true, ProfileKind.development),
        (false, true, false, ProfileKind.adHoc),
        (false, false, false, ProfileKind.appStore),
        (false, false, true, ProfileKind.unknown),
    ])
    func kindFollowsDevicesAndDebugging(allDevices: Bool, devices: Bool, getTaskAllow: Bool, kind: ProfileKind) {
        #expect(ProfileKind(provisionsAllDevices: allDevices, hasDevices: devices, getTaskAllow: getTaskAllow) == kind)
    }
}
