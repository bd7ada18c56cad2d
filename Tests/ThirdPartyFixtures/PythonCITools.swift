import AppFlipTestSupport
import Foundation

/// The CI-integration tools from PyPI, pinned (`Tests/ThirdPartyFixtures/ci-tools/setup.sh`, `.build/ci-tools-venv`, made on first
/// use under a lock as for the other Python fixtures): HAR 1.2's schema with jsonschema and haralyzer reading
/// an archive, markdown-it-py rendering a summary, and a recording reverse proxy that writes down every secret
/// an audit's exchanges carried.
public enum PythonCITools {
    /// `Tests/ThirdPartyFixtures/ci-tools/har_check.py FILE [SECRETS]`'s JSON: `schemaErrors`, `reader` (haralyzer's entries),
    /// `entries`, `findings` and `secretsFound` (each form of a secret of `secretsFile` found in the file).
    public static func checkHAR(file: String, secretsFile: String? = nil) async throws -> [String: Any] {
        try await PythonScript.json(
            python: try await venv.value,
            fixture: "ci-tools",
            script: "har_check.py",
            arguments: [file] + (secretsFile.map { [$0] } ?? []),
            limit: .seconds(60)
        )
    }

    /// `Tests/ThirdPartyFixtures/ci-tools/summary_check.py FILE`'s JSON: `bytes`, `tables`, `headings`, `codeBlocks`,
    /// `details` and `html`, as markdown-it-py renders the file with GFM tables.
    public static func renderSummary(file: String) async throws -> [String: Any] {
        try await PythonScript.json(
            python: try await venv.value,
            fixture: "ci-tools",
            script: "summary_check.py",
            arguments: [file],
            limit: .seconds(60)
        )
    }

    /// Runs `body` with `Tests/ThirdPartyFixtures/ci-tools/recording_proxy.py` forwarding `http://127.0.0.1:PORT`
    /// to `upstream` (a base URL), then stops it by PID. `body` gets the proxy's base URL and the file the proxy
    /// writes every secret it saw to, one a line (mode 0600).
    public static func withRecordingProxy<Result: Sendable>(
        to upstream: String,
        _ body: @Sendable (_ baseURL: String, _ secretsFile: String) async throws -> Result
    ) async throws -> Result {
        let python = try await venv.value
        let state = FileManager.default.temporaryDirectory.appendingPathComponent("appflip-proxy-\(UUID())")
        try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: state) }
        let portFile = state.appendingPathComponent("port").path
        let secrets = state.appendingPathComponent("secrets").path
        do {
            return try await TestCommandRunner.whileRunning(
                python,
                [
                    ThirdPartyFixture.folder("ci-tools") + "/recording_proxy.py", "--upstream", upstream, "--port-file", portFile,
                    "--secrets", secrets, "--lifetime", "300",
                ]
            ) { pid in
                var port: Int?
                try await waitUntil("recording_proxy.py listening", within: .seconds(60)) {
                    guard !TestCommandRunner.hasExited(pid) else { throw FixtureError("recording_proxy.py exited before it listened") }
                    port = (try? String(contentsOfFile: portFile, encoding: .utf8)).flatMap {
                        Int($0.trimmingCharacters(in: .whitespacesAndNewlines))
                    }
                    return port != nil
                }
                return try await body("http://127.0.0.1:\(port!)", secrets)
            }.result
        } catch let failure as TestCommandRunner.BodyFailed {
            throw FixtureError("recording_proxy.py: \(failure)")
        }
    }

    private static let venv = Task { try await PythonVenv.setUp(fixture: "ci-tools", venv: "ci-tools-venv") }
}
