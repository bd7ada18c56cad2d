import Foundation

/// The CI-integration tools from PyPI, pinned (`scripts/ci-tools/setup.sh`, `.build/ci-tools-venv`, made on first
/// use under a lock as for the other Python fixtures): HAR 1.2's schema with jsonschema and haralyzer reading
/// an archive, markdown-it-py rendering a summary, and a recording reverse proxy that writes down every secret
/// an audit's exchanges carried.
public enum PythonCITools {
    /// `scripts/ci-tools/har_check.py FILE [SECRETS]`'s JSON: `schemaErrors`, `reader` (haralyzer's entries),
    /// `entries`, `findings` and `secretsFound` (each form of a secret of `secretsFile` found in the file).
    public static func checkHAR(file: String, secretsFile: String? = nil) async throws -> [String: Any] {
        try await PythonScript.json(
            python: try await venv.value,
            script: "scripts/ci-tools/har_check.py",
            arguments: [file] + (secretsFile.map { [$0] } ?? []),
            limit: .seconds(60)
        )
    }

    /// `scripts/ci-tools/summary_check.py FILE`'s JSON: `bytes`, `tables`, `headings`, `codeBlocks`,
    /// `details` and `html`, as markdown-it-py renders the file with GFM tables.
    public static func renderSummary(file: String) async throws -> [String: Any] {
        try await PythonScript.json(python: try await venv.value, script: "scripts/ci-tools/summary_check.py", arguments: [file], limit: .seconds(60))
    }

    /// Runs `body` with `scripts/ci-tools/recording_proxy.py` forwarding `http://127.0.0.1:PORT` to `upstream`
    /// (a base URL), then stops it by PID. `body` gets the proxy's base URL and the file the proxy writes every
    /// secret it saw to, one a line (mode 0600).
    public static func withRecordingProxy<Result: Sendable>(
        to upstream: String,
        _ body: @Sendable (_ baseURL: String, _ secretsFile: String) async throws -> Result
    ) async throws -> Result {
        let python = try await venv.value
        let state = FileManager.default.temporaryDirectory.appendingPathComponent("appflip-proxy-\(UUID())")
        try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: state) }
        let portFile = state.appendingPathComponent("port")
        let secrets = state.appendingPathComponent("secrets")
        let errors = state.appendingPathComponent("stderr.log")
        _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [
            "\(DjangoOAuthServer.repositoryRoot)/scripts/ci-tools/recording_proxy.py", "--upstream", upstream, "--port-file", portFile.path,
            "--secrets", secrets.path, "--lifetime", "300",
        ]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = try FileHandle(forWritingTo: errors)
        try process.run()
        do {
            let port = try await DjangoOAuthServer.listeningPort(of: process, portFile: portFile, errors: errors, name: "recording_proxy.py")
            let result = try await body("http://127.0.0.1:\(port)", secrets.path)
            await DjangoOAuthServer.stop(process)
            return result
        } catch {
            await DjangoOAuthServer.stop(process)
            let log = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
            throw DjangoFixtureError("recording_proxy.py: \(error)\n\(log.suffix(4000))")
        }
    }

    private static let venv = Task { try await PythonVenv.setUp(script: "scripts/ci-tools/setup.sh", venv: ".build/ci-tools-venv") }
}
