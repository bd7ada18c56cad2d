import AppFlipTestSupport

/// The Android artifacts `Tests/AndroidArtifacts/make-test-artifacts` builds with Google's tools from Debian, into
/// `.build/android-test-artifacts` (rebuilt only when the scripts change), once per test process.
enum AndroidTestArtifacts {
    private static let built = Task {
        let folder = Repository.path(".build/android-test-artifacts")
        try await ArtifactTools.output(Repository.path("Tests/AndroidArtifacts/make-test-artifacts"), [folder])
        return folder
    }

    /// The path of artifact `name`.
    static func path(_ name: String) async throws -> String {
        try await built.value + "/" + name
    }
}
