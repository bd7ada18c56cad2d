import AppFlipTestSupport
import Foundation
import Testing

/// `appflip app inspect`, the built executable: exit 0 and the facts for each kind, Android and iOS, told by
/// content; 1 naming the structure and offset for an artifact it cannot read; 64 for a wrong command line.
@Suite("appflip app inspect")
struct AppInspectCommandTests {
    /// The built `appflip` with `arguments`.
    static func inspect(_ arguments: [String]) async throws -> ArtifactTools.Run {
        try await ArtifactTools.run(TestCommand.path(of: "appflip"), arguments)
    }

    /// `appflip app inspect --json FILE`'s object, after checking it exited 0.
    static func json(_ path: String) async throws -> [String: Any] {
        let run = try await inspect(["app", "inspect", "--json", path])
        #expect(run.status == 0, "\(run.output)")
        return try #require(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any], "\(run.output)")
    }

    @Test(
        "each Android kind is told by its content and read",
        arguments: [
            ("app-all.apk", "apk"), ("app.aab", "aab"), ("binary-AndroidManifest.xml", "binary-manifest"),
            ("proto-AndroidManifest.xml", "proto-manifest"), ("source-AndroidManifest.xml", "source-manifest"),
        ]
    )
    func androidKinds(file: String, kind: String) async throws {
        let object = try await Self.json(try await AndroidTestArtifacts.path(file))
        #expect(object["platform"] as? String == "android")
        #expect(object["kind"] as? String == kind)
        #expect(object["package"] as? String == "com.example.partner")
        #expect((object["uploadKey"] as? String != nil) == (kind == "aab"))
    }

    @Test(
        "each iOS kind is told by its content and read",
        arguments: [
            ("Demo.ipa", "ipa", "infoPlist"), ("development.mobileprovision", "provisioning-profile", "profile"),
            ("appstore.mobileprovision", "provisioning-profile", "profile"), ("Demo-arm64", "mach-o", "executable"),
            ("Demo-fat", "mach-o", "executable"), ("Demo.entitlements", "entitlements", "entitlementsFile"),
            ("Info.plist", "info-plist", "infoPlist"), ("Info.binary.plist", "info-plist", "infoPlist"),
        ]
    )
    func iosKinds(file: String, kind: String, source: String) async throws {
        let object = try await Self.json(try await AppleArtifactFixtures.path(file))
        #expect(object["platform"] as? String == "ios")
        #expect(object["kind"] as? String == kind)
        #expect(object[source] is [String: Any], "\(file): no \(source)")
        let appIDs = object["appIDs"] as? [[String: Any]] ?? []
        #expect(appIDs.allSatisfy { $0["appID"] as? String == "ABCDE12345.com.example.demo" }, "\(appIDs)")
    }

    @Test("the Android text report names the signers, the App Link filter and the dropped host")
    func androidText() async throws {
        let run = try await Self.inspect(["app", "inspect", try await AndroidTestArtifacts.path("app-v31.apk")])
        #expect(run.status == 0)
        #expect(run.output.contains("signatures: v1, v2, v3, v3.1"))
        #expect(run.output.contains("a v3.1 signer takes over from SDK 33"))
        #expect(run.output.contains("intent-filter (App Link, autoVerify)"))
        #expect(run.output.contains("verified hosts (Android 12+): links.example.com, flip.example.com, alias.example.com"))
        #expect(run.output.contains("dropped: @string/localized_host varies by configuration"))
    }

    @Test("the iOS text report names each source, the claimed domains and the app IDs")
    func iosText() async throws {
        let path = try await AppleArtifactFixtures.path("Demo.ipa")
        let run = try await Self.inspect(["app", "inspect", path])
        #expect(run.status == 0, "\(run.output)")
        let lines = run.output.split(separator: "\n").map(String.init)
        #expect(lines.first == "iOS app archive: \(path)")
        for expected in [
            "provisioning profile (Payload/Demo.app/embedded.mobileprovision)", "associated domains (signed entitlements):",
            "  applinks:*.example.com?mode=developer", "  signed entitlements: ABCDE12345.com.example.demo",
        ] {
            #expect(lines.contains(expected), "missing \(expected) in\n\(run.output)")
        }
    }

    @Test("an unreadable artifact exits 1 naming the structure and the offset")
    func unreadable() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("inspect-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        func cut(_ path: String, _ name: String) throws -> String {
            var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
            bytes.removeLast(10)
            try Data(bytes).write(to: directory.appendingPathComponent(name))
            return directory.appendingPathComponent(name).path
        }
        let unknown = directory.appendingPathComponent("notes.txt")
        try Data("hello".utf8).write(to: unknown)
        let plist = directory.appendingPathComponent("settings.plist")
        try Data("<?xml version=\"1.0\"?><plist version=\"1.0\"><dict><key>a</key>".utf8).write(to: plist)
        for (path, says) in [
            (try cut(try await AndroidTestArtifacts.path("app-v2.apk"), "broken.apk"), "zip end of central directory at offset"),
            (try cut(try await AppleArtifactFixtures.path("Demo.ipa"), "broken.ipa"), "zip end of central directory at offset"),
            (
                try await AppleArtifactFixtures.path("hostile/endless-deflate.ipa"),
                "zip entry: the deflate stream does not end within its 1005 compressed bytes"
            ),
            (try await AppleArtifactFixtures.path("hostile/dot-dot.ipa"), "zip central directory at offset"),
            (try cut(try await AppleArtifactFixtures.path("Demo-arm64"), "broken-macho"), "at offset"),
            (unknown.path, "not an artifact app inspect reads"),
            // A nameless property list whose keys cannot be read to tell its kind: the iOS readers' error.
            (plist.path, "settings.plist: property list at offset"),
        ] {
            let run = try await Self.inspect(["app", "inspect", path])
            #expect(run.status == 1, "\(path): \(run.output)")
            #expect(run.output.contains(says), "\(path): \(run.output)")
        }
    }

    @Test("a wrong command line exits 64")
    func usage() async throws {
        #expect(try await Self.inspect(["app", "inspect"]).status == 64)
        #expect(try await Self.inspect(["app", "inspect", "a", "b"]).status == 64)
        #expect(try await Self.inspect(["app", "inspect", "--no-such-option", "a"]).status == 64)
    }
}
