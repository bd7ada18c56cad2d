import AppFlipClient
import AppFlipCore
import AppFlipGoogle
import AppFlipOAuth
import AppFlipProtocol
import AppFlipTesting
import NIOCore
import Testing

/// The `appflip` handler's Android mode end to end: a real daemon, the real embedded OAuth server over
/// loopback HTTP, the Google app's Android identity registered over the socket.
@Suite struct AndroidPartnerHandlerTests {
    static let handler = TestPartner.handler(extra: ["android": TestPartner.androidSection()])

    /// Registers `caller` on a connection of its own and starts the partner's App Flip activity.
    static func start(
        _ daemon: TestDaemon,
        as caller: AndroidCaller = TestPartner.google,
        clientID: String = TestPartner.clientID,
        forResult: Bool = true
    ) async throws -> StartResult {
        let connection = try await daemon.connect(client: "google")
        defer { Task { await connection.close() } }
        try await AndroidFlipRunner.register(as: caller, on: connection)
        let intent = AndroidAppFlip.intent(
            action: TestPartner.androidAction,
            package: TestPartner.androidPackage,
            clientID: clientID,
            scopes: ["profile", "devices"],
            redirectURI: TestPartner.androidRedirectURI
        )
        return try await connection.start(intent, forResult: forResult)
    }

    @Test func theGoogleAppGetsACodeThatExchangesForTheScopesItAskedFor() async throws {
        try await TestPartner.run(handler: Self.handler) { daemon in
            let started = try await Self.start(daemon)
            #expect(started.app == TestPartner.appID)
            #expect(started.activity == "test.partner.app.AppFlipActivity")
            let result = try #require(started.result)
            guard case .code(let code)? = AndroidFlipResultChecker.check(result).outcome else {
                Issue.record("no code: \(result.redactedExtras)")
                return
            }
            let tokens = try await daemon.tokenClient()
            let issued = try await tokens.exchange(code: code, redirectURI: TestPartner.androidRedirectURI)
            #expect(issued.report.scopes == ["profile", "devices"])
            #expect(issued.report.violations.isEmpty, "\(issued.report.violations)")
        }
    }

    @Test(arguments: [
        AndroidCaller(package: "com.evil.app", fingerprints: TestPartner.google.fingerprints),
        AndroidCaller(package: TestPartner.google.package, fingerprints: [Array(repeating: "AC", count: 32).joined(separator: ":")]),
    ])
    func aCallerThatIsNotTheGoogleAppGetsCanceled(caller: AndroidCaller) async throws {
        try await TestPartner.run(handler: Self.handler) { daemon in
            let started = try await Self.start(daemon, as: caller)
            #expect(started.result == AndroidAppFlip.canceled)
        }
    }

    @Test func aCallerWhoseSecondCertificateIsAllowedIsTheGoogleApp() async throws {
        let rotated = AndroidCaller(
            package: TestPartner.google.package,
            fingerprints: [Array(repeating: "01", count: 32).joined(separator: ":")] + TestPartner.google.fingerprints
        )
        try await TestPartner.run(handler: Self.handler) { daemon in
            let started = try await Self.start(daemon, as: rotated)
            #expect(started.result?.resultCode == IntentResult.ok)
        }
    }

    @Test func aWrongClientIDIsAnInvalidRequest() async throws {
        try await TestPartner.run(handler: Self.handler) { daemon in
            let result = try #require(try await Self.start(daemon, clientID: "someone-else").result)
            let verdict = AndroidFlipResultChecker.check(result)
            #expect(verdict.outcome == .error(.invalidRequest, code: 3, description: "CLIENT_ID is not one of the expected client ids"))
        }
    }

    @Test func scriptedOutcomesKeepTheContract() async throws {
        let cases: [(String, AndroidFlipResultChecker.Outcome)] = [
            ("cancel", .canceled),
            ("unrecoverable", .error(.unrecoverable, code: 2, description: nil)),
            ("invalid_request", .error(.invalidRequest, code: 3, description: nil)),
        ]
        for (outcome, expected) in cases {
            let handler = TestPartner.handler(outcome: outcome, extra: ["android": TestPartner.androidSection()])
            try await TestPartner.run(handler: handler) { daemon in
                let result = try #require(try await Self.start(daemon).result)
                #expect(AndroidFlipResultChecker.check(result).outcome == expected, "\(outcome)")
            }
        }
    }

    @Test func aDisabledUserIsUnrecoverable() async throws {
        let handler = TestPartner.handler(user: "dave", extra: ["android": TestPartner.androidSection()])
        try await TestPartner.run(handler: handler) { daemon in
            let result = try #require(try await Self.start(daemon).result)
            guard case .error(let type, _, _)? = AndroidFlipResultChecker.check(result).outcome else {
                Issue.record("not an error answer: \(result.redactedExtras)")
                return
            }
            #expect(type == .unrecoverable)
        }
    }

    @Test func withoutAnAndroidSectionTheHandlerTakesNoIntents() async throws {
        try await TestPartner.run { daemon in
            let connection = try await daemon.connect(client: "google")
            try await AndroidFlipRunner.register(as: TestPartner.google, on: connection)
            let intent = AndroidAppFlip.intent(
                action: TestPartner.androidAction,
                package: TestPartner.androidPackage,
                clientID: TestPartner.clientID,
                scopes: ["profile"],
                redirectURI: TestPartner.androidRedirectURI
            )
            let reply = try await connection.send(.start(StartRequest(intent: intent, forResult: true))).get()
            #expect(reply.error?.code == .handlerFailed)
            #expect(reply.error?.message.contains("no android section") == true)
            await connection.close()
        }
    }
}
