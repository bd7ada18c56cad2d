import AppFlipCore
import Testing

@testable import AppFlipAudit

/// The judges' own rules, pure: `WWW-Authenticate`'s grammar (RFC 9110 §11.2, RFC 6750 §3) and HTTPS off
/// the loopback interface. The judges over real servers are `OAuthServerAuditTests`'.
@Suite struct JudgeTests {
    /// RFC 9110 §11.6.1's examples and the forms servers send, each with the problems it must be found to have.
    static let challenges: [(String, [String])] = [
        (#"Basic realm="oauth""#, []),
        (#"Basic realm="oauth", error="invalid_client""#, []),
        (#"Newauth realm="apps", type=1, title="Login to \"apps\"", Basic realm="simple""#, []),
        ("Basic", []),
        ("Negotiate a87421000492aa874209af8bc028==", []),
        (#"Bearer realm="example", error="invalid_token", error_description="The access token expired""#, []),
        (#"Bearer error=invalid_token"#, []),
        // aioauth's quick start: an unquoted value with spaces.
        ("Basic error=invalid_client, error_description=Invalid client_id parameter value.", ["not a challenge list"]),
        (#"Basic realm="a", realm="b""#, ["more than once"]),
        ("Bearer", ["Bearer without any auth-param"]),
        ("Bearer abc==", ["token68"]),
        ("", ["no challenge"]),
        (#"Basic realm="unterminated"#, ["not a challenge list"]),
        (#"Bearer error="invalid\token""#, []),
    ]

    @Test(arguments: challenges)
    func eachChallengeIsJudgedByItsGrammar(header: String, expected: [String]) {
        let problems = ChallengeSyntax.problems(header)
        #expect(problems.count == expected.count, "\(header): \(problems)")
        for (problem, words) in zip(problems, expected) { #expect(problem.contains(words), "\(header): \(problem)") }
    }

    @Test func aBearerErrorOutsideRFC6750sCharactersIsAProblem() {
        #expect(ChallengeSyntax.problems("Bearer error=\"invalid\u{7F}\"").contains { $0.contains("outside RFC 6750") })
    }

    static func exchange(_ id: Int, _ endpoint: RecordedExchange.Endpoint, _ url: String) -> ExchangeRecorder.Exchange {
        ExchangeRecorder.Exchange(
            record: RecordedExchange(
                id: id,
                endpoint: endpoint,
                purpose: "a test",
                request: RecordedExchange.Request(method: "GET", url: url, headers: [], form: []),
                response: nil,
                failure: nil,
                started: .zero,
                duration: .zero
            ),
            googleSends: true
        )
    }

    @Test func httpOffTheLoopbackFailsAndTheLoopbackIsNotJudged() {
        let ledger = AuditLedger()
        HTTPSJudge.judge(
            [
                Self.exchange(1, .authorization, "http://127.0.0.1:8471/authorize?client_id=c"),
                Self.exchange(2, .token, "https://partner.example/token"), Self.exchange(3, .resource, "http://partner.example/me"),
                Self.exchange(4, .revocation, "http://[::1]:9/revoke"),
            ],
            into: ledger
        )
        ledger.set(.authorizationEndpoint, .met)
        ledger.set(.tokenEndpoint, .met)
        let snapshot = ledger.snapshot()
        let authorize = VerdictBuilder.result(of: .authorizeHTTPS, snapshot)
        #expect(authorize.outcome == .skipped && authorize.reason.contains("loopback"), "\(authorize.reason)")
        let token = VerdictBuilder.result(of: .tokenHTTPS, snapshot)
        #expect(token.outcome == .fail, "\(token.reason)")
        #expect(token.reason == "not over HTTPS: http://partner.example/me", "\(token.reason)")
        #expect(["localhost", "127.0.0.1", "127.5.6.7", "[::1]"].allSatisfy { HTTPSJudge.isLoopback("http://\($0):80/x") })
        #expect(!["partner.example", "128.0.0.1", "127.0.0.1.example"].contains { HTTPSJudge.isLoopback("http://\($0)/x") })
    }
}
