import Foundation

/// A Python venv of the interop fixtures, made by its setup script (which holds a lock across processes and
/// prints the venv's python last).
enum PythonVenv {
    /// Runs `script` (at most 600 s) for `venv`, both relative to the repository, and returns the python.
    static func setUp(script: String, venv: String) async throws -> String {
        let root = DjangoOAuthServer.repositoryRoot
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("appflip-venv-setup-\(UUID()).log")
        defer { try? FileManager.default.removeItem(at: log) }
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["\(root)/\(script)", "\(root)/\(venv)"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = try FileHandle(forWritingTo: log)
        try await process.runToExit(within: .seconds(600), failure: "\(script) did not finish within 600 s")
        let stdout = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        guard process.terminationStatus == 0, let python = stdout.split(separator: "\n").last.map(String.init) else {
            let errors = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            throw DjangoFixtureError(
                "\(script) failed (exit \(process.terminationStatus)); python3 with venv and PyPI access are needed the first time:\n\(errors)"
            )
        }
        return python
    }
}
