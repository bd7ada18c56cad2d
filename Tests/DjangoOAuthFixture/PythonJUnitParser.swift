import Foundation

/// junitparser from PyPI, pinned, reading a JUnit XML file as a CI system would: `scripts/junit/setup.sh`
/// creates `.build/junit-venv` on first use, under a lock, as for the other Python fixtures.
public enum PythonJUnitParser {
    /// The pinned version, as `setup.sh` installs and checks it.
    public static let pinned = "junitparser==5.0.3"

    /// `scripts/junit/summarize.py FILE`'s JSON: `suites`, each with `name`, `tests`, `failures`, `skipped`
    /// and `cases` (`name`, `classname`, `result`, `message`, `text`).
    public static func summarize(file: String) throws -> [String: Any] {
        let python = try venv.get()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = ["\(DjangoOAuthServer.repositoryRoot)/scripts/junit/summarize.py", file]
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let stdout = output.fileHandleForReading.readDataToEndOfFile()
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0, let summary = try JSONSerialization.jsonObject(with: stdout) as? [String: Any] else {
            throw DjangoFixtureError("summarize.py failed (exit \(process.terminationStatus)):\n\(stderr)")
        }
        return summary
    }

    private static let venv = Result { try PythonVenv.setUp(script: "scripts/junit/setup.sh", venv: ".build/junit-venv") }
}
