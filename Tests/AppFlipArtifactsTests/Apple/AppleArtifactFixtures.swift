import AppFlipTestSupport
import Foundation

/// The iOS artifacts that Tests/AppleArtifacts/make_ios_artifacts.py builds (profiles of every kind, property
/// lists, thin and universal Mach-O executables with signatures, an .ipa and hostile archives), built once per
/// test process into a temporary folder.
enum AppleArtifactFixtures {
    static let script = Repository.path("Tests/AppleArtifacts/make_ios_artifacts.py")

    private static let built = Task { try await build() }

    /// The folder holding the artifacts.
    static func folder() async throws -> String { try await built.value }

    /// The path of artifact `name`.
    static func path(_ name: String) async throws -> String { try await folder() + "/" + name }

    /// The bytes of artifact `name`.
    static func bytes(_ name: String) async throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: try await path(name))))
    }

    private static func build() async throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("appflip-ios-artifacts-\(getpid())").path
        try? FileManager.default.removeItem(atPath: folder)
        try await ArtifactTools.output("python3", [script, folder])
        return folder
    }
}
