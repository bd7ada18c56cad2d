/// The judges that read every exchange of the run once it is over, so that an answer is judged wherever it
/// appeared: the token-response shape, error answers, challenges, redirects and HTTPS.
enum Judges {
    static func run(_ context: AuditContext) {
        let exchanges = context.exchanges.exchanges
        TokenResponseJudge.judge(exchanges, into: context.ledger)
        ErrorAnswerJudge.judge(exchanges, into: context.ledger)
        ChallengeJudge.judge(exchanges, into: context.ledger)
        LocationJudge.judge(exchanges, into: context.ledger)
        HTTPSJudge.judge(exchanges, into: context.ledger)
    }
}
