import Testing

@testable import AppFlipCore

/// The decision table of docs/app-flip.md, row by row, in the same order.
@Suite struct FlipPolicyTests {
    typealias Q = FlipFixtures
    static let redirect = Q.allowed(Q.assistant)
    static let good = Q.query()

    struct Row: Sendable, CustomTestStringConvertible {
        let row: String
        let query: String
        let expected: FlipDecision
        var testDescription: String { row }
    }

    static let rows: [Row] = [
        // 1–5: redirect_uri decides first; nothing is ever sent to it.
        Row(
            row: "D1 redirect_uri missing",
            query: Q.query(redirectURI: nil),
            expected: .decline(.redirectURI(FlipLinkProblem(.redirectURI, .missing)))
        ),
        Row(
            row: "D2 redirect_uri empty",
            query: Q.query(redirectURI: ""),
            expected: .decline(.redirectURI(FlipLinkProblem(.redirectURI, .empty)))
        ),
        Row(
            row: "D3 redirect_uri twice, even identical",
            query: good + "&redirect_uri=" + Q.assistant.string,
            expected: .decline(.redirectURI(FlipLinkProblem(.redirectURI, .duplicated(count: 2))))
        ),
        Row(
            row: "D4 redirect_uri not UTF-8",
            query: Q.query(redirectURI: "%FF"),
            expected: .decline(.redirectURI(FlipLinkProblem(.redirectURI, .notUTF8)))
        ),
        Row(
            row: "D5 redirect_uri not allowed",
            query: Q.query(redirectURI: Q.assistant.string + "%3A443"),
            expected: .decline(.redirectURINotAllowed(RedirectRefusal(.pathNotAllowed("/a/com.google.OPA:443"))))
        ),
        Row(
            row: "D5 redirect_uri with a port",
            query: Q.query(redirectURI: "https://oauth-redirect.googleusercontent.com:443/a/com.google.OPA"),
            expected: .decline(.redirectURINotAllowed(RedirectRefusal(.port("443"))))
        ),
        Row(
            row: "D5 a '+' in redirect_uri decodes to a space",
            query: Q.query(redirectURI: Q.assistant.string + "+"),
            expected: .decline(.redirectURINotAllowed(RedirectRefusal(.whitespaceOrControl(offset: 61))))
        ),
        Row(
            row: "D5 a double-encoded redirect_uri stays encoded",
            query: Q.query(redirectURI: "https://oauth-redirect.googleusercontent.com/a/com%252Egoogle.OPA"),
            expected: .decline(.redirectURINotAllowed(RedirectRefusal(.percentEncodedPath("/a/com%2Egoogle.OPA"))))
        ),
        Row(
            row: "D5 wins over a bad client_id",
            query: Q.query(clientID: "wrong", redirectURI: "https://evil.test/"),
            expected: .decline(.redirectURINotAllowed(RedirectRefusal(.hostNotAllowed("evil.test"))))
        ),
        // 6–10: then client_id; still nothing is sent.
        Row(
            row: "D6 client_id missing",
            query: Q.query(clientID: nil),
            expected: .decline(.clientID(FlipLinkProblem(.clientID, .missing)))
        ),
        Row(
            row: "D7 client_id empty",
            query: Q.query(clientID: ""),
            expected: .decline(.clientID(FlipLinkProblem(.clientID, .empty)))
        ),
        Row(
            row: "D8 client_id twice",
            query: good + "&client_id=" + Q.clientID,
            expected: .decline(.clientID(FlipLinkProblem(.clientID, .duplicated(count: 2))))
        ),
        Row(
            row: "D9 client_id not UTF-8",
            query: Q.query(clientID: "partner%C0%AF"),
            expected: .decline(.clientID(FlipLinkProblem(.clientID, .notUTF8)))
        ),
        Row(
            row: "D10 client_id not expected",
            query: Q.query(clientID: "other-client"),
            expected: .decline(.clientIDNotExpected)
        ),
        Row(
            row: "D10 client_id differs in case",
            query: Q.query(clientID: "Partner-client-123"),
            expected: .decline(.clientIDNotExpected)
        ),
        Row(
            row: "D10 client_id with a trailing space",
            query: Q.query(clientID: "partner-client-123+"),
            expected: .decline(.clientIDNotExpected)
        ),
        Row(
            row: "D10 wins over a missing state and scope",
            query: Q.query(clientID: "other", scope: nil, state: nil),
            expected: .decline(.clientIDNotExpected)
        ),
        // 11–20: then state and scope, answered with invalid_request to the verified redirect URI.
        Row(
            row: "E11 state missing",
            query: Q.query(state: nil),
            expected: .invalidRequest(redirectURI: redirect, state: nil, description: "Invalid request: state is missing")
        ),
        Row(
            row: "E12 state empty (echoed empty)",
            query: Q.query(state: ""),
            expected: .invalidRequest(redirectURI: redirect, state: "", description: "Invalid request: state is empty")
        ),
        Row(
            row: "E13 state twice",
            query: good + "&state=x",
            expected: .invalidRequest(redirectURI: redirect, state: nil, description: "Invalid request: state occurs 2 times")
        ),
        Row(
            row: "E14 state not UTF-8",
            query: Q.query(state: "%FE"),
            expected: .invalidRequest(redirectURI: redirect, state: nil, description: "Invalid request: state is not valid UTF-8 once decoded")
        ),
        Row(
            row: "E15 scope missing",
            query: Q.query(scope: nil),
            expected: .invalidRequest(redirectURI: redirect, state: "nonce-1", description: "Invalid request: scope is missing")
        ),
        Row(
            row: "E16 scope empty",
            query: Q.query(scope: ""),
            expected: .invalidRequest(redirectURI: redirect, state: "nonce-1", description: "Invalid request: scope is empty")
        ),
        Row(
            row: "E17 scope twice",
            query: good + "&scope=x",
            expected: .invalidRequest(redirectURI: redirect, state: "nonce-1", description: "Invalid request: scope occurs 2 times")
        ),
        Row(
            row: "E18 scope not UTF-8",
            query: Q.query(scope: "%80"),
            expected: .invalidRequest(redirectURI: redirect, state: "nonce-1", description: "Invalid request: scope is not valid UTF-8 once decoded")
        ),
        Row(
            row: "E19 scope with an empty token",
            query: Q.query(scope: "read++write"),
            expected: .invalidRequest(
                redirectURI: redirect,
                state: "nonce-1",
                description: "Invalid request: scope has an empty scope (a leading, trailing or doubled space)"
            )
        ),
        Row(
            row: "E20 scope with a character outside NQCHAR",
            query: Q.query(scope: "read%22"),
            expected: .invalidRequest(
                redirectURI: redirect,
                state: "nonce-1",
                description: "Invalid request: scope has a character not allowed in a scope (RFC 6749 section 3.3)"
            )
        ),
        Row(
            row: "E state and scope both wrong, both listed",
            query: Q.query(scope: "", state: nil),
            expected: .invalidRequest(redirectURI: redirect, state: nil, description: "Invalid request: state is missing; scope is empty")
        ),
        // 21: everything checks out.
        Row(
            row: "P21 proceed",
            query: good,
            expected: .proceed(FlipRequest(clientID: Q.clientID, scopes: ["read", "write"], state: "nonce-1", redirectURI: redirect))
        ),
        Row(
            row: "P21 proceed with %20, encoded redirect_uri and unknown parameters",
            query: Q.query(scope: "email%20profile", redirectURI: PercentEncoding.encodeStrictly(Q.assistant.string)) + "&hl=en&scope_extra=1",
            expected: .proceed(FlipRequest(clientID: Q.clientID, scopes: ["email", "profile"], state: "nonce-1", redirectURI: redirect))
        ),
    ]

    @Test(arguments: rows)
    func decisionTable(row: Row) throws {
        #expect(try FlipFixtures.policy().decide(try FlipFixtures.link(row.query)) == row.expected)
    }

    static let invalidRequestRows = rows.filter { if case .invalidRequest = $0.expected { true } else { false } }

    @Test(arguments: invalidRequestRows)
    func everyInvalidRequestResultPassesTheGoogleSideCheck(row: Row) throws {
        let decision = try FlipFixtures.policy().decide(try FlipFixtures.link(row.query))
        guard case .invalidRequest(let redirectURI, let state, let description) = decision,
            let url = decision.invalidRequestResultURL
        else {
            Issue.record("\(decision)")
            return
        }
        let verdict = FlipResultChecker(redirectURI: redirectURI.string, state: state ?? "unused").check(url)
        #expect(verdict.isValid, "\(verdict)")
        #expect(verdict.outcome == .error(.invalidRequest, description: description))
        #expect(verdict.deviations == (state == nil ? [.stateMissingWithError] : []))
    }

    @Test(arguments: AppFlipRedirectURI.all)
    func proceedsForEachOfTheTwelve(uri: AppFlipRedirectURI) throws {
        let decision = try FlipFixtures.policy().decide(try FlipFixtures.link(FlipFixtures.query(redirectURI: uri.string)))
        guard case .proceed(let request) = decision else {
            Issue.record("\(decision)")
            return
        }
        #expect(request.redirectURI.appFlip == uri)
        #expect(
            request.authorizationRequest == AuthorizationRequest(clientID: FlipFixtures.clientID, redirectURI: uri.string, scopes: ["read", "write"])
        )
    }

    @Test func comparesClientIDsByteForByteNotByCanonicalEquivalence() throws {
        // "\u{212A}" (KELVIN SIGN) == "K" and "e\u{301}" == "\u{E9}" under Swift's String ==.
        #expect("\u{212A}" == "K" && "e\u{301}" == "\u{E9}")
        let policy = try FlipPolicy(expectedClientIDs: ["K-caf\u{E9}"])
        let exact = try FlipFixtures.link(FlipFixtures.query(clientID: PercentEncoding.encodeStrictly("K-caf\u{E9}")))
        guard case .proceed = policy.decide(exact) else {
            Issue.record("exact id declined")
            return
        }
        for lookalike in ["\u{212A}-caf\u{E9}", "K-cafe\u{301}"] {
            let link = try FlipFixtures.link(FlipFixtures.query(clientID: PercentEncoding.encodeStrictly(lookalike)))
            #expect(policy.decide(link) == .decline(.clientIDNotExpected), "\(lookalike.unicodeScalars.map(\.value))")
        }
    }

    @Test func acceptsAnyOfSeveralExpectedClientIDs() throws {
        let policy = try FlipPolicy(expectedClientIDs: ["a", "b"])
        for id in ["a", "b"] {
            guard case .proceed(let request) = policy.decide(try FlipFixtures.link(FlipFixtures.query(clientID: id))) else {
                Issue.record("declined \(id)")
                continue
            }
            #expect(request.clientID == id)
        }
        #expect(policy.decide(try FlipFixtures.link(FlipFixtures.query(clientID: "c"))) == .decline(.clientIDNotExpected))
    }

    @Test func aUserAllowlistDecidesTheRedirect() throws {
        let sandbox = try #require(AppFlipRedirectURI.all.first { $0.environment == .sandbox })
        let policy = try FlipPolicy(expectedClientIDs: [FlipFixtures.clientID], allowedRedirectURIs: try RedirectAllowlist(appFlip: [sandbox]))
        guard case .proceed = policy.decide(try FlipFixtures.link(FlipFixtures.query(redirectURI: sandbox.string))) else {
            Issue.record("declined the configured URI")
            return
        }
        #expect(
            policy.decide(try FlipFixtures.link(FlipFixtures.query()))
                == .decline(.redirectURINotAllowed(RedirectRefusal(.hostNotAllowed(FlipFixtures.assistant.host))))
        )
    }

    @Test func refusesAPolicyThatCouldNeverBeRight() {
        #expect(throws: FlipPolicyError.noClientIDs) { try FlipPolicy(expectedClientIDs: []) }
        #expect(throws: FlipPolicyError.emptyClientID(index: 1)) { try FlipPolicy(expectedClientIDs: ["a", ""]) }
    }

    @Test func anInvalidRequestBuildsItsResultURL() throws {
        let decision = try FlipFixtures.policy().decide(try FlipFixtures.link(FlipFixtures.query(scope: nil)))
        #expect(
            decision.invalidRequestResultURL
                == FlipFixtures.assistant.string
                + "?error=invalid_request&error_description=Invalid%20request%3A%20scope%20is%20missing&state=nonce-1"
        )
        #expect(try FlipFixtures.policy().decide(try FlipFixtures.link(FlipFixtures.query())).invalidRequestResultURL == nil)
    }
}
