import AppFlipCore

/// Every refusal of the token and revocation endpoints to a request Google can send, whichever check sent
/// it: `token.error-format` (a JSON object with `error`, on HTTP 400 or 401, RFC 6749 §5.2) and
/// `token.error-fields` (the registered values; the description under RFC 6749 §5.2's name, a SHOULD: the
/// member is optional and clients ignore members they do not know, §5.1).
enum ErrorAnswerJudge {
    /// RFC 6749 §5.2's error values, and those registered for the token endpoint's error response by the
    /// OAuth Extensions Error Registry (RFC 8628 §3.5, RFC 8707 §2, RFC 9449 §5 and §8).
    static let tokenErrorValues: Set<String> = [
        "invalid_request", "invalid_client", "invalid_grant", "unauthorized_client", "unsupported_grant_type", "invalid_scope",
        "authorization_pending", "slow_down", "access_denied", "expired_token", "invalid_target", "invalid_dpop_proof", "use_dpop_nonce",
    ]
    /// RFC 7009 §2.2.1 adds one value at the revocation endpoint.
    static let revocationErrorValues = tokenErrorValues.union(["unsupported_token_type"])
    /// Names servers use for the description, which RFC 6749 §5.2 calls `error_description`.
    static let misnamedDescriptions: Set<String> = [
        "description", "message", "error_message", "errorDescription", "errorMessage", "error_msg", "msg", "detail", "details",
    ]

    /// A refusal and the exchange that brought it.
    struct Refusal {
        var exchange: ExchangeRecorder.Exchange
        var answer: TokenAnswer
        var label: String { "#\(exchange.record.id) \(exchange.record.purpose)" }
        var revocation: Bool { exchange.record.endpoint == .revocation }
    }

    /// The refusals among `exchanges`: a token answer without tokens, a revocation answer of 4xx or 5xx.
    static func refusals(_ exchanges: [ExchangeRecorder.Exchange]) -> [Refusal] {
        exchanges.compactMap { exchange in
            // A server error under the audit's concurrency says nothing about how the server writes a refusal.
            guard exchange.googleSends, !exchange.overloaded, case .token(let answer)? = exchange.answer else { return nil }
            let refused = exchange.record.endpoint == .revocation ? answer.status >= 400 : !answer.issuedTokens
            return refused ? Refusal(exchange: exchange, answer: answer) : nil
        }
    }

    static func judge(_ exchanges: [ExchangeRecorder.Exchange], into ledger: AuditLedger) {
        let refusals = refusals(exchanges)
        guard !refusals.isEmpty else {
            ledger.set(.errorAnswer, .nothingToJudge("no error answer was seen"))
            ledger.set(.errorObject, .nothingToJudge("no error answer was seen"))
            return
        }
        ledger.establish(.errorAnswer)
        format(refusals, into: ledger)
        fields(refusals.filter { $0.answer.members != nil }, into: ledger)
    }

    private static func format(_ refusals: [Refusal], into ledger: AuditLedger) {
        let evidence = refusals.map { "\($0.label): \($0.answer)" + ($0.answer.contentType.map { " (\($0))" } ?? "") }
        // RFC 7009 §2.2.1: a revocation endpoint that is temporarily unavailable answers 503, without a body of rules.
        let judged = refusals.filter { !($0.revocation && $0.answer.status == 503) }
        guard !judged.isEmpty else {
            ledger.record(.tokenErrorFormat, .held("only a revocation endpoint's 503 (RFC 7009 §2.2.1)", evidence: evidence))
            return
        }
        let broken = judged.filter { !($0.answer.status == 400 || $0.answer.status == 401) || $0.answer.error == nil || !$0.answer.isJSON }
        guard broken.isEmpty else {
            ledger.record(
                .tokenErrorFormat,
                .fail(
                    "\(broken.count) of \(judged.count) errors are not JSON with error on HTTP 400/401: "
                        + broken.map { "\($0.label) got \($0.answer.summary)" }.joined(separator: "; "),
                    evidence: evidence
                )
            )
            return
        }
        ledger.record(.tokenErrorFormat, .held("\(judged.count) errors, each JSON with error on HTTP 400/401", evidence: evidence))
    }

    private static func fields(_ objects: [Refusal], into ledger: AuditLedger) {
        guard !objects.isEmpty else {
            ledger.set(.errorObject, .nothingToJudge("no error answer with a JSON body was seen"))
            return
        }
        ledger.establish(.errorObject)
        var values: [String] = []
        var names: [String] = []
        for refusal in objects {
            let members = refusal.answer.members ?? [:]
            if let error = refusal.answer.error, !(refusal.revocation ? revocationErrorValues : tokenErrorValues).contains(error) {
                values.append("\(refusal.label): error=\(String(error.prefix(64))) is not a registered value")
            }
            if members["error_description"] == nil, let misnamed = members.keys.sorted().first(where: { misnamedDescriptions.contains($0) }) {
                names.append("\(refusal.label): \"\(misnamed)\" instead of error_description")
            }
        }
        let evidence = objects.map { "\($0.label): members \(($0.answer.members ?? [:]).keys.sorted().joined(separator: ", ")): \($0.answer)" }
        if !values.isEmpty {
            ledger.record(.tokenErrorFields, .fail("\(values.count) problem(s): " + values.joined(separator: "; "), evidence: evidence))
        }
        if !names.isEmpty {
            ledger.record(
                .tokenErrorFields,
                .warn(
                    "\(names.count) problem(s): " + names.joined(separator: "; ")
                        + " (RFC 6749 §5.2 names it error_description; clients read no other)",
                    evidence: values.isEmpty ? evidence : []
                )
            )
        }
        if values.isEmpty && names.isEmpty {
            ledger.record(.tokenErrorFields, .held("\(objects.count) errors, each with registered names and values", evidence: evidence))
        }
    }
}
