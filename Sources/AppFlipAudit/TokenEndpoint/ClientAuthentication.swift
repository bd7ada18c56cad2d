import AppFlipCore
import AppFlipGoogle

/// The token endpoint's precondition, `token.client-auth`: how it authenticates Google's client. Each method
/// exchanges a fresh code of its own; the configured one (`--client-auth`) is what Google sends, so its
/// refusal is the failure and the other method's answer is information. Every later check uses a method
/// that works, so that one refused method does not turn into a cascade of `invalid_client` failures.
extension TokenEndpointAudit {
    struct ClientAuthentication {
        var result: AuditResult
        /// The method the later checks use; nil when the credentials were refused both ways.
        var method: ClientAuthMethod?
        /// The answer that issued tokens, for `token.exchange` and the shape checks.
        var tokens: TokenAnswer?
        /// The configured method's answer.
        var configuredAnswer: TokenAnswer
        var exchangeEvidence: [String]
        /// Whether HTTP Basic got tokens.
        var basicAccepted: Bool { accepted.contains(.basic) }
        /// The methods that got tokens.
        var accepted: [ClientAuthMethod]
        /// The refusals of requests Google sends, for the error checks.
        var errors: [(String, TokenAnswer)]
    }

    func clientAuthentication(_ codes: any AuditCodeSource) async throws(AuditUnreachable) -> ClientAuthentication {
        let configured = target.clientAuth
        let other = configured.other
        let configuredCode = try await freshCode(codes)
        let configuredAnswer = try await exchange(configuredCode, client(configured))
        let otherCode = try await freshCode(codes)
        let otherAnswer = try await exchange(otherCode, client(other))
        let evidence = [
            "POST \(target.url) grant_type=authorization_code, \(Self.redacted("code", configuredCode)): \(configuredAnswer)",
            "POST \(target.url) grant_type=authorization_code, \(Self.redacted("code", otherCode)): \(otherAnswer)",
        ]
        let accepted = [(configured, configuredAnswer), (other, otherAnswer)].filter { $0.1.issuedTokens }.map(\.0)
        let configuredLabel = "the exchange with \(configured.name)"
        var outcome = ClientAuthentication(
            result: AuditResult(.tokenClientAuth, .pass, ""),
            method: configured,
            tokens: nil,
            configuredAnswer: configuredAnswer,
            exchangeEvidence: evidence,
            accepted: accepted,
            errors: []
        )
        if configuredAnswer.issuedTokens {
            let information =
                otherAnswer.issuedTokens
                ? "\(other.name) is accepted too"
                : "\(other.name) got \(otherAnswer.summary) (information: Google sends \(configured.name))"
            outcome.result = AuditResult(
                .tokenClientAuth,
                .pass,
                "\(configured.name) is accepted, as Google sends it (--client-auth \(configured.rawValue)); \(information)",
                evidence: evidence
            )
            outcome.tokens = configuredAnswer
        } else if otherAnswer.issuedTokens {
            outcome.result = AuditResult(
                .tokenClientAuth,
                .fail,
                "\(configured.name), which Google sends (--client-auth \(configured.rawValue)), got \(configuredAnswer.summary); \(other.name) gets tokens, so the other checks use it: accept \(configured.name), or configure \(other.name) for Google's client",
                evidence: evidence
            )
            outcome.method = other
            outcome.tokens = otherAnswer
            outcome.errors = [(configuredLabel, configuredAnswer)]
        } else if configuredAnswer.error == "invalid_client" && otherAnswer.error == "invalid_client" {
            outcome.result = AuditResult(
                .tokenClientAuth,
                .couldNotRun,
                "could not run: the token endpoint refused the client's credentials both ways (\(configured.name): \(configuredAnswer.summary); \(other.name): \(otherAnswer.summary)): check --client-id and the client secret",
                evidence: evidence
            )
            outcome.method = nil
        } else {
            outcome.result = AuditResult(
                .tokenClientAuth,
                .skipped,
                "neither method got tokens, so neither can be told to work (token.exchange says what came back)",
                evidence: evidence
            )
            outcome.errors = [(configuredLabel, configuredAnswer)]
        }
        return outcome
    }
}
