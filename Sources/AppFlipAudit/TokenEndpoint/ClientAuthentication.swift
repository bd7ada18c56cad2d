import AppFlipCore
import AppFlipGoogle

/// The token endpoint's precondition, `token.client-auth`: how it authenticates Google's client. Each method
/// exchanges a fresh code of its own; the configured one (`--client-auth`) is what Google sends, so its
/// refusal is the failure and the other method's answer is information. Every later check uses a method
/// that works, so that one refused method does not turn into a cascade of `invalid_client` failures.
extension TokenEndpointAudit {
    /// The method the later checks use, the answer that issued tokens (nil when none did), and the methods
    /// that got tokens.
    struct WorkingMethod {
        var method: ClientAuthMethod
        var tokens: TokenAnswer?
        var accepted: [ClientAuthMethod]
    }

    /// Nil when the client's credentials were refused both ways (`token.client-auth` could not run).
    func clientAuthentication(_ codes: any AuditCodeSource) async throws(AuditUnreachable) -> WorkingMethod? {
        let configured = target.clientAuth
        let other = configured.other
        func noCode() -> WorkingMethod? {
            let why = context.ledger.snapshot().ownNeeds[.tokenClientAuth]?[.code] ?? .nothingToJudge("no fresh code")
            context.ledger.set(.workingClientAuth, why)
            context.ledger.set(.tokens, why)
            return nil
        }
        guard let configuredCode = try await freshCode(codes, for: .tokenClientAuth) else { return noCode() }
        let configuredAnswer = try await exchange(
            configuredCode,
            client(configured),
            for: "token.client-auth: \(configured.name), as Google sends it"
        )
        guard let otherCode = try await freshCode(codes, for: .tokenClientAuth) else { return noCode() }
        var otherClient = client(other)
        otherClient.googleSends = false
        let otherAnswer = try await exchange(otherCode, otherClient, for: "token.client-auth: \(other.name), for information")
        if otherAnswer.issuedTokens { context.exchanges.markGoogleSends(otherAnswer.exchange) }
        let evidence = [
            "POST \(target.url) grant_type=authorization_code, \(Self.redacted("code", configuredCode)): \(configuredAnswer)",
            "POST \(target.url) grant_type=authorization_code, \(Self.redacted("code", otherCode)): \(otherAnswer)",
        ]
        let accepted = [(configured, configuredAnswer), (other, otherAnswer)].filter { $0.1.issuedTokens }.map(\.0)
        let outcome = Self.blame(configured: (configured, configuredAnswer), other: (other, otherAnswer))
        let ledger = context.ledger
        switch outcome {
        case .configured(let why), .other(let why):
            ledger.establish(.workingClientAuth)
            ledger.establish(.tokens)
            let method = outcome.isConfigured ? configured : other
            ledger.record(.tokenClientAuth, outcome.isConfigured ? .held(why, evidence: evidence) : .fail(why, evidence: evidence))
            ledger.record(.tokenExchange, .held("tokens issued (\(method.name))", evidence: evidence))
            return WorkingMethod(method: method, tokens: outcome.isConfigured ? configuredAnswer : otherAnswer, accepted: accepted)
        case .refused(let cause, let why):
            ledger.set(.workingClientAuth, .couldNotRun(cause, why))
            ledger.set(.tokens, .couldNotRun(cause, why))
            ledger.record(.tokenClientAuth, .note(evidence))
            return nil
        case .noTokens(let why):
            // The credentials are not refused: the checks that need no tokens go on with the configured method.
            ledger.establish(.workingClientAuth)
            ledger.set(.workingClientAuth, .nothingToJudge(why), for: .tokenClientAuth)
            let why = "a fresh code got \(configuredAnswer.summary), not tokens"
            ledger.set(.tokens, .brokeRule(.tokenExchange, why))
            ledger.record(.tokenExchange, .fail(why, evidence: evidence))
            ledger.record(.tokenClientAuth, .note(evidence))
            return WorkingMethod(method: configured, tokens: nil, accepted: [])
        }
    }

    /// What the two exchanges say about the client authentication, blamed once.
    enum ClientAuthBlame: Equatable {
        /// The configured method works.
        case configured(String)
        /// Only the other method works: `token.client-auth` fails, the later checks use the other.
        case other(String)
        /// Both refused the credentials, or the endpoint is down: could not run.
        case refused(CouldNotRunCause, String)
        /// Neither got tokens for another reason: `token.exchange` fails.
        case noTokens(String)

        var isConfigured: Bool { if case .configured = self { true } else { false } }
    }

    static func blame(configured: (ClientAuthMethod, TokenAnswer), other: (ClientAuthMethod, TokenAnswer)) -> ClientAuthBlame {
        let (method, answer) = configured
        let (otherMethod, otherAnswer) = other
        if answer.issuedTokens {
            let information =
                otherAnswer.issuedTokens
                ? "\(otherMethod.name) is accepted too" : "\(otherMethod.name) got \(otherAnswer.summary) (information: Google sends \(method.name))"
            return .configured("\(method.name) is accepted, as Google sends it (--client-auth \(method.rawValue)); \(information)")
        }
        if otherAnswer.issuedTokens {
            return .other(
                "\(method.name), which Google sends (--client-auth \(method.rawValue)), got \(answer.summary); \(otherMethod.name) gets tokens, so the other checks use it: accept \(method.name), or configure \(otherMethod.name) for Google's client"
            )
        }
        if answer.error == "invalid_client" && otherAnswer.error == "invalid_client" {
            return .refused(
                .contradictoryOptions,
                "the token endpoint refused the client's credentials both ways (\(method.name): \(answer.summary); \(otherMethod.name): \(otherAnswer.summary)): check --client-id and the client secret"
            )
        }
        if answer.status >= 500 && otherAnswer.status >= 500 {
            return .refused(
                .serverError,
                "the token endpoint answered a valid code exchange with a server error both ways (\(answer.summary); \(otherAnswer.summary))"
            )
        }
        return .noTokens("neither method got tokens, so neither can be told to work (token.exchange says what came back)")
    }
}
