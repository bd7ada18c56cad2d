import AppFlipCore
import Foundation
import Testing

@testable import AppFlipArtifacts

/// An .ipa zipped by Python's zipfile to Xcode's layout, read back and held against Info-ZIP's `zipinfo` and
/// `unzip`, which read the same archive independently.
@Suite struct IPATests {
    static let appID = AppleAppID(team: "ABCDE12345", bundle: "com.example.demo")

    @Test func readsTheAppFromTheArchive() async throws {
        let path = try await AppleArtifactFixtures.path("Demo.ipa")
        let (kind, app) = try #require(try IOSArtifacts.read(path: path))
        #expect(kind == .ipa)
        #expect(app.infoPlist?.entry == "Payload/Demo.app/Info.plist")
        #expect(app.infoPlist?.value.bundleIdentifier == "com.example.demo")
        #expect(app.infoPlist?.value.executable == "Demo")
        #expect(app.profile?.entry == "Payload/Demo.app/embedded.mobileprovision")
        #expect(app.profile?.value.kind == .development)
        #expect(app.executable?.entry == "Payload/Demo.app/Demo")
        // Inflated out of the archive as a stream, the executable reads as the same file read where it lies.
        let fat = try MachOFile(path: try await AppleArtifactFixtures.path("Demo-fat"))
        #expect(app.executable?.value == fat)
        #expect(app.claimedEntitlements?.source == .signature)
        #expect(app.appIDs.map(\.source) == [.profile, .signature, .codeDirectory])
        #expect(app.appIDs.allSatisfy { $0.value == Self.appID })
        #expect(app.bundleIdentifiers.map(\.value) == ["com.example.demo", "com.example.demo"])
        let entries = try #require(
            app.associatedDomains.flatMap { claim -> [AssociatedDomainEntry]? in
                if case .entries(let entries) = claim { entries } else { nil }
            }
        )
        #expect(entries.map(\.service) == ["applinks", "applinks", "applinks", "webcredentials", "activitycontinuation"])
        #expect(entries.compactMap(\.applinks).map(\.modes) == [[], [.developer], [.developer, .managed]])
    }

    @Test(.enabled(if: ArtifactTools.has("zipinfo") && ArtifactTools.has("unzip"), "needs zipinfo and unzip"))
    func entriesMatchInfoZIP() async throws {
        let path = try await AppleArtifactFixtures.path("Demo.ipa")
        let archive = try ArtifactArchive(path: path)
        let entries = try archive.directory.entries { _ in true }
        let listed = try await ArtifactTools.output("zipinfo", ["-1", path]).split(separator: "\n").map(String.init)
        #expect(entries.map(\.name) == listed)
        let extracted = FileManager.default.temporaryDirectory.appendingPathComponent("appflip-ipa-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: extracted) }
        try await ArtifactTools.output("unzip", ["-q", path, "-d", extracted])
        for entry in entries where !entry.name.hasSuffix("/") {
            let expected = [UInt8](try Data(contentsOf: URL(fileURLWithPath: extracted + "/" + entry.name)))
            #expect(try archive.read(entry, limit: 1 << 20) == expected, "\(entry.name)")
        }
    }

    @Test func readsTheZIP64EndRecords() async throws {
        let path = try await AppleArtifactFixtures.path("Demo-zip64.ipa")
        let tail = try await AppleArtifactFixtures.bytes("Demo-zip64.ipa").suffix(22)
        #expect(Array(tail.prefix(4)) == [0x50, 0x4B, 0x05, 0x06])
        #expect(Array(tail.dropFirst(10).prefix(2)) == [0xFF, 0xFF])
        let directory = try ArtifactArchive(path: path).directory
        #expect(directory.entryCount == 70005)
        #expect(try directory.entries { _ in true }.count == 70005)
        let app = try #require(try IOSArtifacts.read(path: path)).app
        #expect(app.executable?.value.primarySlice?.signature?.codeDirectory.identifier == "com.example.demo")
        #expect(app.profile == nil)
    }
}
