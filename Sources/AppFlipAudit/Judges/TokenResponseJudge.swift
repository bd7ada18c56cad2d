import AppFlipCore
import AppFlipGoogle

/// RFC 6749 §5.1's shape on every token response that issued tokens, exchanges and refreshes alike (a
/// refresh answer is issued "as described in Section 5.1", RFC 6749 §6): `token.json`, `token.no-store`,
/// `token.bearer`, `token.opaque`, `token.expires-in`; and `token.refresh-issued` on every exchange. Each
/// finding names the exchanges that showed it.
enum TokenResponseJudge {
    /// The checks this judge decides, from every token response of the run.
    static let checks: [CheckSpec] = [.tokenJSON, .tokenNoStore, .tokenBearer, .tokenOpaque, .tokenExpiresIn, .tokenRefreshIssued]

    static func judge(_ exchanges: [ExchangeRecorder.Exchange], into ledger: AuditLedger) {
        let issued: [(exchange: ExchangeRecorder.Exchange, answer: TokenAnswer)] = exchanges.compactMap { exchange in
            guard case .token(let answer)? = exchange.answer, answer.issuedTokens,
                exchange.grant == .authorizationCode || exchange.grant == .refreshToken
            else { return nil }
            return (exchange, answer)
        }
        guard !issued.isEmpty else { return }
        let label = { (item: (exchange: ExchangeRecorder.Exchange, answer: TokenAnswer)) in
            "#\(item.exchange.record.id) \(item.exchange.record.purpose)"
        }
        let counted =
            "\(issued.count) token responses (\(issued.filter { $0.exchange.grant == .authorizationCode }.count) exchanges, \(issued.filter { $0.exchange.grant == .refreshToken }.count) refreshes)"

        /// One check over `items`: `problem` says how an answer breaks the rule, and in what words.
        func verdict(
            _ check: CheckSpec,
            held: String,
            among items: [(exchange: ExchangeRecorder.Exchange, answer: TokenAnswer)] = issued,
            counted: String = counted,
            _ problem: (TokenAnswer) -> (level: CheckLevel, text: String)?
        ) {
            var failed: [String] = []
            var warned: [String] = []
            for item in items {
                guard let (level, text) = problem(item.answer) else { continue }
                if level == .must { failed.append("\(label(item)): \(text)") } else { warned.append("\(label(item)): \(text)") }
            }
            if !failed.isEmpty {
                ledger.record(check, .fail("\(failed.count) of \(items.count) token responses: " + failed.joined(separator: "; "), evidence: failed))
            }
            if !warned.isEmpty {
                ledger.record(check, .warn("\(warned.count) of \(items.count) token responses: " + warned.joined(separator: "; "), evidence: warned))
            }
            if failed.isEmpty && warned.isEmpty { ledger.record(check, .held("\(counted), each \(held)")) }
        }

        verdict(.tokenJSON, held: "application/json") {
            $0.isJSON ? nil : (.must, "Content-Type \($0.contentType ?? "absent"), not application/json")
        }
        verdict(.tokenNoStore, held: "with Cache-Control: no-store") {
            noStore($0) ? nil : (.must, "Cache-Control: \($0.cacheControl ?? "absent"), without no-store (a MUST)")
        }
        verdict(.tokenBearer, held: "token_type Bearer") {
            $0.string("token_type")?.lowercased() == "bearer"
                ? nil : (.must, "token_type is \($0.string("token_type").map { "\"\($0)\"" } ?? "absent"), not Bearer")
        }
        verdict(.tokenOpaque, held: "an opaque access token") {
            isJWT($0) ? (.must, "the access token is a JWT (three base64url segments), \(($0.accessToken ?? "").utf8.count) bytes") : nil
        }
        verdict(.tokenExpiresIn, held: "expires_in a positive integer", expiresInProblem)
        let exchanged = issued.filter { $0.exchange.grant == .authorizationCode }
        if !exchanged.isEmpty {
            verdict(.tokenRefreshIssued, held: "with a refresh_token", among: exchanged, counted: "\(exchanged.count) code exchanges") {
                $0.refreshToken == nil ? (.must, "no refresh_token with an access token that expires") : nil
            }
        }
    }

    private static func noStore(_ answer: TokenAnswer) -> Bool {
        answer.cacheControl?.lowercased().split(separator: ",").contains { $0.filter { $0 != " " } == "no-store" } == true
    }

    private static func isJWT(_ answer: TokenAnswer) -> Bool {
        let accessToken = answer.accessToken ?? ""
        return TokenResponse(accessToken: accessToken, tokenType: "Bearer", expiresIn: nil, refreshToken: nil, scope: nil).report.accessTokenFormat
            != .opaque
    }

    /// A present `expires_in` must be a positive integer (a MUST: the lifetime in seconds, a JSON number);
    /// a missing one breaks RFC 6749 §5.1's RECOMMENDED, a SHOULD.
    private static func expiresInProblem(_ answer: TokenAnswer) -> (level: CheckLevel, text: String)? {
        switch answer.members?["expires_in"] {
        case .number(let seconds)? where seconds > 0 && seconds < 1e15 && seconds == seconds.rounded(): nil
        case nil: (.should, "expires_in is missing (RFC 6749 §5.1: RECOMMENDED)")
        case let value?: (.must, "expires_in is \(value.compactJSON), not a positive integer")
        }
    }
}
