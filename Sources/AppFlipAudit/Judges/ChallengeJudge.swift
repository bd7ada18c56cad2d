import AppFlipCore
import AppFlipGoogle

/// `token.www-authenticate` on every answer of the run that calls for a challenge, whichever check sent the
/// request: every HTTP 401 carries `WWW-Authenticate` with at least one well-formed challenge (RFC 9110
/// §15.5.2, §11.2, §11.6.1; RFC 6750 §3 for Bearer), and a client that authenticated with HTTP Basic and
/// failed gets HTTP 401 with a challenge naming Basic (RFC 6749 §5.2). The resource's challenges are judged
/// for their syntax here; whether the resource challenges with Bearer at all is `token.resource-refusal`'s.
enum ChallengeJudge {
    static func judge(_ exchanges: [ExchangeRecorder.Exchange], into ledger: AuditLedger) {
        var judged: [String] = []
        var problems: [String] = []
        for exchange in exchanges where exchange.googleSends {
            let label = "#\(exchange.record.id) \(exchange.record.purpose)"
            switch exchange.answer {
            case .token(let answer)?:
                let basicFailed =
                    exchange.clientAuth == .basic && !answer.issuedTokens && (answer.error == "invalid_client" || answer.status == 401)
                guard answer.status == 401 || basicFailed else { continue }
                judged.append("\(label): \(answer)")
                if basicFailed && answer.status != 401 {
                    problems.append("\(label): a failed HTTP Basic attempt got HTTP \(answer.status), not 401 (RFC 6749 §5.2)")
                    continue
                }
                problems += challengeProblems(answer.wwwAuthenticate, label)
                if basicFailed, answer.wwwAuthenticate != nil, !Challenge.names(answer.wwwAuthenticate, scheme: "basic") {
                    problems.append(
                        "\(label): a 401 to a failed HTTP Basic attempt has WWW-Authenticate: \(String(answer.wwwAuthenticate!.prefix(120))), which does not name Basic (RFC 6749 §5.2)"
                    )
                }
            case .resource(let answer)? where answer.status == 401 && answer.wwwAuthenticate != nil:
                judged.append("\(label): \(answer)")
                problems += challengeProblems(answer.wwwAuthenticate, label)
            default:
                continue
            }
        }
        guard !judged.isEmpty else {
            ledger.set(.unauthorizedAnswer, .nothingToJudge("no HTTP 401 and no failed HTTP Basic attempt was seen"))
            return
        }
        ledger.establish(.unauthorizedAnswer)
        if problems.isEmpty {
            ledger.record(
                .tokenWWWAuthenticate,
                .held("\(judged.count) answers that call for a challenge, each with a well-formed WWW-Authenticate", evidence: judged)
            )
        } else {
            ledger.record(.tokenWWWAuthenticate, .fail("\(problems.count) problem(s): " + problems.joined(separator: "; "), evidence: judged))
        }
    }

    private static func challengeProblems(_ header: String?, _ label: String) -> [String] {
        guard let header else { return ["\(label): HTTP 401 without WWW-Authenticate (RFC 9110 §15.5.2: a 401 MUST carry a challenge)"] }
        return ChallengeSyntax.problems(header).map { "\(label): WWW-Authenticate: \(String(header.prefix(120))): \($0)" }
    }
}
