import Foundation

/// Independent OAuth 2.0 clients from PyPI — authlib and requests-oauthlib/oauthlib, pinned — driven by
/// `scripts/oauth-clients/interop.py`. `scripts/oauth-clients/setup.sh` creates `.build/oauth-clients-venv`
/// on first use (pip from PyPI), under a lock, as for django-oauth-toolkit.
public enum PythonOAuthClients {
    /// The pinned versions, as `setup.sh` installs and checks them.
    public static let pinned = "authlib==1.9.9 requests-oauthlib==2.0.0 oauthlib==3.3.1 requests==2.34.2"

    /// Runs `interop.py PHASE` with `input` as JSON on stdin (at most 120 s) and returns its JSON output.
    /// Its stderr is returned in the error only: the script never writes a secret to either.
    public static func run(phase: String, input: [String: Any]) throws -> [String: Any] {
        let python = try venv.get()
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("appflip-oauth-clients-\(UUID())")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let inputFile = scratch.appendingPathComponent("input.json")
        let outputFile = scratch.appendingPathComponent("output.json")
        let errorFile = scratch.appendingPathComponent("stderr.log")
        try JSONSerialization.data(withJSONObject: input).write(to: inputFile)
        _ = FileManager.default.createFile(atPath: outputFile.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errorFile.path, contents: nil)

        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = ["\(DjangoOAuthServer.repositoryRoot)/scripts/oauth-clients/interop.py", phase]
        process.standardInput = try FileHandle(forReadingFrom: inputFile)
        process.standardOutput = try FileHandle(forWritingTo: outputFile)
        process.standardError = try FileHandle(forWritingTo: errorFile)
        try process.run()
        let deadline = ContinuousClock.now + .seconds(120)
        while process.isRunning && ContinuousClock.now < deadline { usleep(20_000) }
        if process.isRunning {
            DjangoOAuthServer.stop(process)
            throw DjangoFixtureError("interop.py \(phase) did not finish within 120 s")
        }
        let errors = (try? String(contentsOf: errorFile, encoding: .utf8)) ?? ""
        guard process.terminationStatus == 0,
            let output = try JSONSerialization.jsonObject(with: Data(contentsOf: outputFile)) as? [String: Any]
        else {
            throw DjangoFixtureError("interop.py \(phase) failed (exit \(process.terminationStatus)):\n\(errors)")
        }
        return output
    }

    /// The venv's python, set up once per process.
    private static let venv = Result { try setUpVenv() }

    static func setUpVenv() throws -> String {
        try PythonVenv.setUp(script: "scripts/oauth-clients/setup.sh", venv: ".build/oauth-clients-venv")
    }
}
