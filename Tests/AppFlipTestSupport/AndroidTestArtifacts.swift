/// The Android artifacts `Tests/AndroidArtifacts/make-test-artifacts` builds with Google's tools from Debian, into
/// `.build/android-test-artifacts` (rebuilt only when the scripts change), once per test process: the artifact
/// readers' tests and the daemon's, which routes by them, read the same files.
public enum AndroidTestArtifacts {
    /// What ``path(_:)`` throws when the script fails.
    public struct BuildFailed: Error, CustomStringConvertible {
        public var description: String

        public init(description: String) {
            self.description = description
        }
    }

    private static let built = Task {
        let folder = Repository.path(".build/android-test-artifacts")
        let script = Repository.path("Tests/AndroidArtifacts/make-test-artifacts")
        let outcome = try await TestCommandRunner.run(script, [folder], within: .seconds(600))
        guard outcome.status == 0 else {
            throw BuildFailed(description: "\(script) failed (scripts/setup installs its tools): \(outcome.standardOutput)\(outcome.standardError)")
        }
        return folder
    }

    /// The path of artifact `name`.
    public static func path(_ name: String) async throws -> String {
        try await built.value + "/" + name
    }
}
