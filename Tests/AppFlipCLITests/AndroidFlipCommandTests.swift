import AppFlipClient
import AppFlipCore
import AppFlipOAuth
import AppFlipProtocol
import AppFlipTestSupport
import AppFlipTesting
import FoundationEssentials
import Testing

/// The real `appflip flip --android` executable against a real daemon and the embedded OAuth server.
@Suite struct AndroidFlipCommandTests {
    static func arguments(_ daemon: TestDaemon, _ extra: [String]) async throws -> [String] {
        [
            "flip", "--socket", daemon.socketPath, "--android", "--android-package", TestPartner.androidPackage,
            "--android-action", TestPartner.androidAction, "--redirect-uri", TestPartner.androidRedirectURI,
            "--caller-fingerprint", TestPartner.google.fingerprints[0], "--client-id", TestPartner.clientID,
            "--scope", "profile", "--scope", "devices",
        ] + extra
    }

    struct Report: Decodable {
        struct Step: Decodable {
            var step: Int
            var name: String
            var status: String
        }
        struct Tokens: Decodable {
            var scopes: [String]?
            var violations: [String]
        }
        var android: Bool?
        var state: String?
        var result: String?
        var steps: [Step]
        var violations: [String]
        var tokens: Tokens?
        var refreshed: Tokens?
        var exitStatus: Int32
        var failure: String?
    }

    @Test func aFullAndroidFlipLinksWithTheScopesAskedFor() async throws {
        try await TestPartner.run(handler: TestPartner.handler(extra: ["android": TestPartner.androidSection()])) { daemon in
            let token = ["--token-url", try await daemon.oauthServer!.baseURL() + "/token", "--client-secret", TestPartner.clientSecret]
            let outcome = try await TestCommand.run("appflip", try await Self.arguments(daemon, ["--json"] + token))
            #expect(outcome.status == 0, "\(outcome.standardOutput)\(outcome.standardError)")
            let report = try JSONDecoder().decode(Report.self, from: Data(outcome.standardOutput.utf8))
            #expect(report.android == true)
            #expect(report.state == nil)
            #expect(report.result == "code")
            #expect(
                report.steps.map(\.name) == [
                    "intent started", "app checked caller and extras", "code obtained", "result returned", "tokens exchanged",
                ]
            )
            #expect(report.steps.allSatisfy { $0.status == "ok" })
            #expect(report.tokens?.scopes == ["profile", "devices"])
            #expect(report.tokens?.violations == [])
            #expect(report.refreshed != nil)
        }
    }

    @Test func aCallerTheHandlerDoesNotAllowIsCanceled() async throws {
        let other = AndroidCaller(package: TestPartner.google.package, fingerprints: [Array(repeating: "CD", count: 32).joined(separator: ":")])
        try await TestPartner.run(handler: TestPartner.handler(extra: ["android": TestPartner.androidSection(callers: [other])])) { daemon in
            let outcome = try await TestCommand.run("appflip", try await Self.arguments(daemon, ["--json", "--no-exchange"]))
            #expect(outcome.status == 1, "\(outcome.standardOutput)\(outcome.standardError)")
            let report = try JSONDecoder().decode(Report.self, from: Data(outcome.standardOutput.utf8))
            #expect(report.result == "RESULT_CANCELED")
            #expect(report.failure?.hasPrefix("step 2 (app checked caller and extras) failed") == true, "\(report.failure ?? "")")
        }
    }

    /// A live partner that returns `RESULT_OK` with an empty code breaks the contract: exit 2, the rule named.
    @Test func resultOKWithAnEmptyCodeBreaksTheContract() async throws {
        try await withTestDaemon { daemon in
            let partner = try await daemon.connect(client: "partner")
            _ = try await partner.register(
                RegisterRequest(appID: "P.partner", domains: [], android: TestPartner.android),
                handler: ImmediateLiveApp(intents: { _ in AndroidAppFlip.code("") })
            )
            let outcome = try await TestCommand.run("appflip", try await Self.arguments(daemon, ["--json", "--no-exchange"]))
            #expect(outcome.status == 2, "\(outcome.standardOutput)\(outcome.standardError)")
            let report = try JSONDecoder().decode(Report.self, from: Data(outcome.standardOutput.utf8))
            #expect(report.violations == ["RESULT_OK without a non-empty AUTHORIZATION_CODE: the Google app gets no code to exchange"])
            await partner.close()
        }
    }

    @Test(arguments: [
        ["--android", "--android-package", "a.b", "--android-action", "x", "--redirect-uri", "https://r.test/r/p"],
        ["--android-package", "a.b", "--link", "https://partner.test/link/flip"],
        ["--android", "--android-action", "x", "--redirect-uri", "https://r.test/r/p", "--caller-fingerprint", "AB"],
    ])
    func usageErrorsExit64(extra: [String]) async throws {
        let outcome = try await TestCommand.run("appflip", ["flip", "--client-id", "c", "--scope", "s", "--no-exchange"] + extra)
        #expect(outcome.status == 64, "\(outcome.standardError)")
    }
}
