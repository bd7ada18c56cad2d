import Foundation

/// junitparser from PyPI, pinned, reading a JUnit XML file as a CI system would:
/// `Tests/ThirdPartyFixtures/junit/setup.sh` creates `.build/junit-venv` on first use, under a lock, as for the
/// other Python fixtures.
public enum PythonJUnitParser {
    /// The pinned version, as `setup.sh` installs and checks it.
    public static let pinned = "junitparser==5.0.3"

    /// `summarize.py FILE`'s JSON: `suites`, each with `name`, `tests`, `failures`, `errors`,
    /// `skipped` and `cases` (`name`, `classname`, `result`, `message`, `text`).
    public static func summarize(file: String) async throws -> [String: Any] {
        try await PythonScript.json(python: try await venv.value, fixture: "junit", script: "summarize.py", arguments: [file], limit: .seconds(60))
    }

    private static let venv = Task { try await PythonVenv.setUp(fixture: "junit", venv: "junit-venv") }
}
