import AppFlipCore
import AppFlipOAuth
import AppFlipTestSupport
import AppFlipTesting
import FoundationEssentials
import Testing

/// `--client-secret`, `--cookie`, `--header` and `--bearer` also come from a file (`--NAME-file`) or the
/// environment (`APPFLIP_CLIENT_SECRET`, …), so that `ps` never shows them: the real executables, a real
/// daemon and the embedded OAuth server.
@Suite struct SecretOptionTests {
    static func flip(_ daemon: TestDaemon, _ extra: [String], environment: [String: String] = [:]) async throws -> TestCommand.Outcome {
        try await TestCommand.run(
            "appflip",
            [
                "flip", "--socket", daemon.socketPath, "--link", TestPartner.link, "--client-id", TestPartner.clientID, "--scope", "profile",
                "--token-url", try await daemon.oauthServer!.baseURL() + "/token",
            ] + extra,
            environment: environment
        )
    }

    static func audit(_ daemon: TestDaemon, _ extra: [String], environment: [String: String] = [:]) async throws -> TestCommand.Outcome {
        try await TestCommand.run(
            "appflip",
            [
                "audit", "--json", "--socket", daemon.socketPath, "--link", TestPartner.link, "--client-id", TestPartner.clientID, "--scope",
                "profile", "--token-url", try await daemon.oauthServer!.baseURL() + "/token",
            ] + extra,
            environment: environment
        )
    }

    @Test func theClientSecretComesFromAFileOrTheEnvironment() async throws {
        try await TestPartner.run { daemon in
            let file = daemon.directory + "/client-secret"
            try TestDirectory.write(TestPartner.clientSecret + "\n", to: file, mode: 0o600)
            let wrong = ["APPFLIP_CLIENT_SECRET": "not-the-secret"]

            let fromFile = try await Self.flip(daemon, ["--client-secret-file", file], environment: wrong)
            #expect(fromFile.status == 0, "the file wins over the environment: \(fromFile.standardOutput)\(fromFile.standardError)")
            let fromEnvironment = try await Self.flip(daemon, [], environment: ["APPFLIP_CLIENT_SECRET": TestPartner.clientSecret])
            #expect(fromEnvironment.status == 0, "\(fromEnvironment.standardOutput)\(fromEnvironment.standardError)")
            let wrongFromEnvironment = try await Self.flip(daemon, [], environment: wrong)
            #expect(wrongFromEnvironment.status == 1, "the token endpoint refuses the wrong secret: \(wrongFromEnvironment.standardError)")
            #expect(!(wrongFromEnvironment.standardOutput + wrongFromEnvironment.standardError).contains("not-the-secret"))

            let audited = try await Self.audit(daemon, ["--client-secret-file", file])
            #expect(audited.status == 0, "\(audited.standardOutput)\(audited.standardError)")
            #expect(audited.standardOutput.contains(#""id":"token.exchange""#))
            let auditedWrong = try await Self.audit(daemon, [], environment: wrong)
            // Refused both in the body and in HTTP Basic: the token checks could not run (exit 1), no rule failed.
            #expect(auditedWrong.status == 1, "\(auditedWrong.standardOutput)")
            #expect(auditedWrong.standardOutput.contains(#""id":"token.client-auth""#))
            #expect(auditedWrong.standardOutput.contains(#""outcome":"could-not-run""#))
            #expect(!auditedWrong.standardOutput.contains("not-the-secret"))
            #expect(!audited.standardOutput.contains(TestPartner.clientSecret))
        }
    }

    @Test func secretOptionsAreUsageErrorsWhenTheyConflictOrTheFileIsEmpty() async throws {
        let directory = try TestDirectory.make()
        defer { TestDirectory.remove(directory) }
        let secret = directory + "/secret"
        let empty = directory + "/empty"
        try TestDirectory.write("s\n", to: secret, mode: 0o600)
        try TestDirectory.write("\n", to: empty, mode: 0o600)
        let token = ["--token-url", "http://127.0.0.1:1/token", "--client-id", "c"]
        let authorize = ["--authorize-url", "http://127.0.0.1:1/authorize", "--client-id", "c", "--scope", "s"]
        let cases: [(arguments: [String], environment: [String: String])] = [
            (["audit"] + token + ["--client-secret", "s", "--client-secret-file", secret], [:]),
            (["audit"] + token + ["--client-secret-file", empty], [:]),
            (["audit"] + token + ["--client-secret-file", directory + "/missing"], [:]),
            (["audit"] + token + ["--client-secret", "s", "--cookie-file", secret], [:]),
            (["audit"] + authorize + ["--cookie-file", secret, "--bearer", "b"], [:]),
            (["audit"] + authorize + ["--header-file", secret], [:]),
            (["audit"] + authorize, ["APPFLIP_COOKIE": "c=1", "APPFLIP_BEARER": "b"]),
            (["flip", "--link", TestPartner.link, "--client-id", "c", "--scope", "s", "--client-secret", "s", "--client-secret-file", secret], [:]),
        ]
        for (arguments, environment) in cases {
            let run = try await TestCommand.run("appflip", arguments, environment: environment)
            #expect(run.status == 64, "\(arguments) \(environment): \(run.standardError)")
            #expect(!run.standardError.contains("c=1"))
        }
    }
}
