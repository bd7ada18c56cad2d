import AppFlipCore
import AppFlipTestSupport
import AppFlipTesting
import Foundation

/// `appflip audit --json` against one matrix server with every target a server has: the partner app (appflipd's
/// built-in `appflip` handler getting its codes from the server's authorization endpoint as the signed-in
/// user), the authorization endpoint with the user's cookie, the token endpoint with Google's default client
/// authentication (`--client-auth post`), the protected resource and, where the library has one, the
/// revocation endpoint. The cookie and the client secret go through files, as a partner's CI passes them.
enum MatrixAudit {
    /// The JSON report's fields the matrix compares.
    struct Report: Decodable {
        struct Result: Decodable {
            var id: String
            var target: String
            var outcome: String
            var reason: String
        }
        var results: [Result]
        var exitStatus: Int32
    }

    /// The server's endpoints, absolute.
    struct Endpoints {
        var authorize: String
        var token: String
        var resource: String
        /// The RFC 7009 revocation endpoint, where the library has one.
        var revoke: String?
    }

    static func run(
        _ endpoints: Endpoints,
        clientID: String,
        clientSecret: String,
        secondClient: (id: String, secret: String),
        scopes: [String],
        cookie: String
    ) async throws -> Report {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("appflip-matrix-audit-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let cookieFile = directory.appendingPathComponent("cookie")
        let secretFile = directory.appendingPathComponent("client-secret")
        let secondSecretFile = directory.appendingPathComponent("second-client-secret")
        try Data(cookie.utf8).write(to: cookieFile)
        try Data(clientSecret.utf8).write(to: secretFile)
        try Data(secondClient.secret.utf8).write(to: secondSecretFile)
        // The partner app as docs/configuration.md's remote authorization sets it up, for the server's client.
        let handler: JSONValue = .object([
            "appflip": .object([
                "clientIDs": .array([.string(clientID)]),
                "authorization": .object([
                    "remote": .object([
                        "authorizeURL": .string(endpoints.authorize),
                        "credential": .object(["cookie": .string(cookie)]),
                        "timeoutSeconds": .number(45),
                    ])
                ]),
                // Generous: tests run in parallel on 2 loaded cores.
                "timeoutSeconds": .number(60),
            ])
        ])
        let outcome = try await TestPartner.run(handler: handler) { daemon in
            try await TestCommand.run(
                "appflip",
                // One request at a time: a race or a server error under load would make a verdict differ from run to run.
                ["audit", "--json", "--concurrency", "1", "--socket", daemon.socketPath, "--link", TestPartner.link, "--client-id", clientID]
                    + scopes.flatMap { ["--scope", $0] } + [
                        "--authorize-url", endpoints.authorize, "--cookie-file", cookieFile.path,
                        "--token-url", endpoints.token, "--client-secret-file", secretFile.path, "--client-auth", "post",
                        "--resource-url", endpoints.resource,
                        "--second-client-id", secondClient.id, "--second-client-secret-file", secondSecretFile.path,
                    ] + (endpoints.revoke.map { ["--revoke-url", $0] } ?? [])
            )
        }
        guard let report = try? JSONDecoder().decode(Report.self, from: Data(outcome.standardOutput.utf8)) else {
            let status = outcome.status.map(String.init) ?? "on a signal"
            throw MatrixError("appflip audit exited \(status) without a JSON report:\n\(outcome.standardError)")
        }
        // No secret in any output (docs/audit.md, "Redaction"): the client secret and the session cookie's value.
        let cookieValues = cookie.split(separator: ";").compactMap { $0.split(separator: "=", maxSplits: 1).last.map(String.init) }
        for secret in [clientSecret, secondClient.secret] + cookieValues
        where outcome.standardOutput.contains(secret) || outcome.standardError.contains(secret) {
            throw MatrixError("appflip audit's output holds a secret of \(secret.utf8.count) bytes")
        }
        return report
    }
}
