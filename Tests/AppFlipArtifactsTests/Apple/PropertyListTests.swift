import AppFlipCore
import Foundation
import Testing

@testable import AppFlipArtifacts

/// Property lists written by Python's plistlib, in XML and binary, read through the bounded reader.
@Suite struct PropertyListTests {
    @Test func xmlAndBinaryInfoPlistsReadAlike() async throws {
        let xml = try InfoPlist(bytes: try await AppleArtifactFixtures.bytes("Info.plist"), file: "Info.plist")
        let binary = try InfoPlist(bytes: try await AppleArtifactFixtures.bytes("Info.binary.plist"), file: "Info.binary.plist")
        #expect(xml == binary)
        #expect(xml.bundleIdentifier == "com.example.demo")
        #expect(xml.executable == "Demo")
        #expect(xml.shortVersion == "1.2")
        #expect(xml.bundleVersion == "42")
        #expect(xml.minimumOSVersion == "15.0")
        #expect(xml.values["CFBundleSupportedPlatforms"] == .array([.string("iPhoneOS")]))
        let described = try await ArtifactTools.output("file", ["-b", try await AppleArtifactFixtures.path("Info.binary.plist")])
        #expect(described.hasPrefix("Apple binary property list"))
    }

    /// Foundation on Linux returns an NSNumber for `<integer>1</integer>` that also casts to `Bool`: the reader
    /// must keep integers, reals and booleans apart, in both formats.
    @Test func keepsBooleansIntegersAndRealsApart() throws {
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict><key>t</key><true/><key>one</key><integer>1</integer><key>zero</key><integer>0</integer>
            <key>half</key><real>0.5</real><key>date</key><date>2024-01-02T03:04:05Z</date><key>data</key><data>AAE=</data></dict></plist>
            """
        let values = try PropertyListReader.readDictionary(Array(xml.utf8), file: "t.plist", what: "a test")
        #expect(values["t"] == .bool(true))
        #expect(values["one"] == .integer(1))
        #expect(values["zero"] == .integer(0))
        #expect(values["half"] == .real(0.5))
        #expect(values["date"] == .date(Date(timeIntervalSince1970: 1_704_164_645)))
        #expect(values["data"] == .data([0, 1]))
        let binary = try PropertyListSerialization.data(fromPropertyList: ["t": true, "one": 1], format: .binary, options: 0)
        let decoded = try PropertyListReader.readDictionary([UInt8](binary), file: "t.bplist", what: "a test")
        #expect(decoded == ["t": .bool(true), "one": .integer(1)])
    }

    @Test func detectsEachKindByContentAndName() async throws {
        let cases: [(String, IOSArtifactKind)] = [
            ("Demo.ipa", .ipa), ("development.mobileprovision", .provisioningProfile), ("appstore.mobileprovision", .provisioningProfile),
            ("Demo-arm64", .machO), ("Demo-fat", .machO), ("Demo.entitlements", .entitlements), ("Info.plist", .infoPlist),
            ("Info.binary.plist", .infoPlist),
        ]
        for (name, kind) in cases {
            #expect(try IOSArtifacts.detect(path: try await AppleArtifactFixtures.path(name)) == kind, "\(name)")
        }
        // By keys, when the name says nothing.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("appflip-detect-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(try await AppleArtifactFixtures.bytes("Info.binary.plist")).write(to: folder.appendingPathComponent("a"))
        try Data(try await AppleArtifactFixtures.bytes("Demo.entitlements")).write(to: folder.appendingPathComponent("b"))
        try Data("<?xml version=\"1.0\"?><manifest package=\"com.example\"/>".utf8).write(to: folder.appendingPathComponent("AndroidManifest.xml"))
        try Data([0x50, 0x4B, 0x05, 0x06] + [UInt8](repeating: 0, count: 18)).write(to: folder.appendingPathComponent("app.apk"))
        #expect(try IOSArtifacts.detect(path: folder.appendingPathComponent("a").path) == .infoPlist)
        #expect(try IOSArtifacts.detect(path: folder.appendingPathComponent("b").path) == .entitlements)
        #expect(try IOSArtifacts.detect(path: folder.appendingPathComponent("AndroidManifest.xml").path) == nil)
        #expect(try IOSArtifacts.detect(path: folder.appendingPathComponent("app.apk").path) == nil)
    }

    @Test func entitlementsFileClaimsItsDomainsWhenNoBinaryDoes() async throws {
        let path = try await AppleArtifactFixtures.path("Demo.entitlements")
        let app = try #require(try IOSArtifacts.read(path: path)).app
        #expect(app.claimedEntitlements?.source == .entitlementsFile)
        #expect(app.appIDs.map(\.source) == [.entitlementsFile])
        #expect(app.associatedDomains?.applinks.count == 3)
    }

    @Test func appIDsSplitAtTheFirstDot() {
        #expect(AppleAppID("ABCDE12345.com.example.app") == AppleAppID(team: "ABCDE12345", bundle: "com.example.app"))
        #expect(AppleAppID("ABCDE12345.*")?.isWildcard == true)
        #expect(AppleAppID("ABCDE12345.com.example.*")?.isWildcard == true)
        #expect(AppleAppID("ABCDE12345.com.example.app")?.isWildcard == false)
        #expect(AppleAppID("nodot") == nil)
        #expect(AppleAppID(".bundle") == nil)
        #expect(AppleAppID("TEAM.") == nil)
    }

    /// Each entry is parsed as routing parses it; other services are listed, not judged; a bad applinks entry keeps
    /// its reason.
    @Test func associatedDomainEntriesAreParsedAsRoutingParsesThem() {
        let claim = AssociatedDomainsClaim(
            .array([
                .string("applinks:Example.COM?mode=managed"), .string("applinks:example.com:443"), .string("webcredentials:example.com"),
                .string("appclips:clip.example.com"),
            ])
        )
        guard case .entries(let entries) = claim else {
            Issue.record("not entries: \(claim)")
            return
        }
        #expect(entries[0].applinks?.description == "applinks:example.com?mode=managed")
        #expect(entries[1].applinks == nil)
        #expect(entries[1].error?.description.contains("not a DNS name") == true)
        #expect(entries[2].service == "webcredentials" && entries[2].applinks == nil && entries[2].error == nil)
        #expect(entries[3].service == "appclips")
        #expect(AssociatedDomainsClaim(.string("*")) == .anyDomain)
        #expect(AssociatedDomainsClaim(.integer(1)) == .malformed("1"))
    }
}
