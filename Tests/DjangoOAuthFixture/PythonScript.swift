import Foundation

/// One run of a fixture's Python script (`scripts/*/NAME.py`) with a venv's python, for its JSON answer.
enum PythonScript {
    /// Runs `script` (relative to the repository) with `arguments` and `input` on stdin, at most `limit`,
    /// and returns the JSON object it writes to stdout. Input and output go through files, so that nothing
    /// waits on a full pipe; stderr is shown only in the error.
    static func json(python: String, script: String, arguments: [String], input: Data = Data(), limit: Duration) async throws -> [String: Any] {
        let name = ([(script as NSString).lastPathComponent] + arguments.prefix(1)).joined(separator: " ")
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("appflip-python-\(UUID())")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let inputFile = scratch.appendingPathComponent("input")
        let outputFile = scratch.appendingPathComponent("output.json")
        let errorFile = scratch.appendingPathComponent("stderr.log")
        try input.write(to: inputFile)
        _ = FileManager.default.createFile(atPath: outputFile.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errorFile.path, contents: nil)

        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = ["\(DjangoOAuthServer.repositoryRoot)/\(script)"] + arguments
        process.standardInput = try FileHandle(forReadingFrom: inputFile)
        process.standardOutput = try FileHandle(forWritingTo: outputFile)
        process.standardError = try FileHandle(forWritingTo: errorFile)
        try await process.runToExit(within: limit, failure: "\(name) did not finish within \(limit)")
        guard process.terminationStatus == 0,
            let output = try JSONSerialization.jsonObject(with: Data(contentsOf: outputFile)) as? [String: Any]
        else {
            let errors = (try? String(contentsOf: errorFile, encoding: .utf8)) ?? ""
            throw DjangoFixtureError("\(name) failed (exit \(process.terminationStatus)):\n\(errors)")
        }
        return output
    }
}
