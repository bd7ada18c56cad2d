import Foundation
import Testing

/// `appflip app inspect`, the built executable: exit 0 and the facts for each kind, 1 naming the structure
/// and offset for an artifact it cannot read, 64 for a wrong command line.
@Suite("appflip app inspect")
struct AppInspectCommandTests {
    /// The built `appflip`, beside the test bundle.
    static let appflip = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("appflip").path

    @Test(
        "each kind is told by its content and read",
        arguments: [
            ("app-all.apk", "apk"), ("app.aab", "aab"), ("binary-AndroidManifest.xml", "binary-manifest"),
            ("proto-AndroidManifest.xml", "proto-manifest"), ("source-AndroidManifest.xml", "source-manifest"),
        ]
    )
    func kinds(file: String, kind: String) throws {
        let run = Tool.run(Self.appflip, ["app", "inspect", "--json", try AndroidTestArtifacts.path(file)])
        #expect(run.status == 0, "\(run.output)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any])
        #expect(object["kind"] as? String == kind)
        #expect(object["package"] as? String == "com.example.partner")
        #expect((object["uploadKey"] as? String != nil) == (kind == "aab"))
    }

    @Test("the text report names the signers, the App Link filter and the dropped host")
    func text() throws {
        let run = Tool.run(Self.appflip, ["app", "inspect", try AndroidTestArtifacts.path("app-v31.apk")])
        #expect(run.status == 0)
        #expect(run.output.contains("signatures: v1, v2, v3, v3.1"))
        #expect(run.output.contains("a v3.1 signer takes over from SDK 33"))
        #expect(run.output.contains("intent-filter (App Link, autoVerify)"))
        #expect(run.output.contains("verified hosts (Android 12+): links.example.com, flip.example.com, alias.example.com"))
        #expect(run.output.contains("dropped: @string/localized_host varies by configuration"))
    }

    @Test("an unreadable artifact exits 1 naming the structure and the offset")
    func unreadable() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("inspect-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let broken = directory.appendingPathComponent("broken.apk")
        var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: try AndroidTestArtifacts.path("app-v2.apk"))))
        bytes.removeLast(10)
        try Data(bytes).write(to: broken)
        let run = Tool.run(Self.appflip, ["app", "inspect", broken.path])
        #expect(run.status == 1)
        #expect(run.output.contains("zip end of central directory at offset"), "\(run.output)")
    }

    @Test("a wrong command line exits 64")
    func usage() {
        #expect(Tool.run(Self.appflip, ["app", "inspect"]).status == 64)
        #expect(Tool.run(Self.appflip, ["app", "inspect", "a", "b"]).status == 64)
    }
}
