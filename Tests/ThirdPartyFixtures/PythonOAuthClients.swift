import Foundation

/// Independent OAuth 2.0 clients from PyPI — authlib and requests-oauthlib/oauthlib, pinned — driven by
/// `Tests/ThirdPartyFixtures/oauth-clients/interop.py`. Its `setup.sh` creates `.build/oauth-clients-venv` on
/// first use (pip from PyPI), under a lock, as for django-oauth-toolkit.
public enum PythonOAuthClients {
    /// The pinned versions, as `setup.sh` installs and checks them.
    public static let pinned = "authlib==1.9.9 requests-oauthlib==2.0.0 oauthlib==3.3.1 requests==2.34.2"

    /// Runs `interop.py PHASE` with `input` as JSON on stdin (at most 120 s) and returns its JSON output.
    /// Its stderr is returned in the error only: the script never writes a secret to either.
    public static func run(phase: String, input: [String: Any]) async throws -> [String: Any] {
        try await PythonScript.json(
            python: try await venv.value,
            fixture: "oauth-clients",
            script: "interop.py",
            arguments: [phase],
            input: try JSONSerialization.data(withJSONObject: input),
            limit: .seconds(120)
        )
    }

    /// The venv's python, set up once per process.
    private static let venv = Task { try await PythonVenv.setUp(fixture: "oauth-clients", venv: "oauth-clients-venv") }
}
