import AppFlipTestSupport
import Foundation

/// One run of a fixture's Python script with its venv's python, for its JSON answer.
enum PythonScript {
    /// Runs `script` of the fixture folder `fixture` with `arguments` and `input` on stdin, at most `limit`,
    /// and returns the JSON object it writes to stdout; its stderr is shown only in the error.
    static func json(
        python: String,
        fixture: String,
        script: String,
        arguments: [String],
        input: Data = Data(),
        limit: Duration
    ) async throws -> [String: Any] {
        let name = ([script] + arguments.prefix(1)).joined(separator: " ")
        let outcome = try await TestCommandRunner.run(
            python,
            [ThirdPartyFixture.folder(fixture) + "/" + script] + arguments,
            input: String(decoding: input, as: UTF8.self),
            within: limit
        )
        guard outcome.status == 0,
            let output = try? JSONSerialization.jsonObject(with: Data(outcome.standardOutput.utf8)) as? [String: Any]
        else {
            throw FixtureError("\(name) failed (exit \(outcome.status.map(String.init) ?? "by a signal")):\n\(outcome.standardError)")
        }
        return output
    }
}
