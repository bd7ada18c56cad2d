import AppFlipTestSupport

/// A fixture's Python venv, made by its `setup.sh` (`pinned-venv.sh`: exact versions from PyPI the first time,
/// under a lock across processes, the venv's python printed last).
enum PythonVenv {
    /// Runs the setup script of the fixture folder `fixture` (at most 600 s) for `.build/VENV`, and returns
    /// the venv's python.
    static func setUp(fixture: String, venv: String) async throws -> String {
        let script = ThirdPartyFixture.folder(fixture) + "/setup.sh"
        let outcome = try await TestCommandRunner.run("/bin/sh", [script, Repository.path(".build/" + venv)], within: .seconds(600))
        guard outcome.status == 0, let python = outcome.standardOutput.split(separator: "\n").last.map(String.init) else {
            throw FixtureError(
                "\(script) failed (exit \(outcome.status.map(String.init) ?? "by a signal")); python3 with venv and PyPI access are needed the first time:\n\(outcome.standardError)"
            )
        }
        return python
    }
}
