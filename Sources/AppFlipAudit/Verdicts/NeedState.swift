import AppFlipCore

/// Where a need stands. A need that is not met is one of four things, and only these decide a skip or a
/// could-not-run (docs/audit.md, "Needs and blame").
enum NeedState: Sendable, Equatable {
    /// Established.
    case met
    /// Its target or option was not given; `why` names what would give it.
    case notGiven(String)
    /// The audit's own input could not establish it (an endpoint that does not answer, a refused sign-in
    /// credential, options the partner's answers contradict): could not run, exit status 1.
    case couldNotRun(CouldNotRunCause, String)
    /// The partner's answer to a valid request broke `rule`, which fails: what needs it is skipped naming it.
    case brokeRule(CheckSpec, String)
    /// The partner answered within the rules, but left nothing for the rule that needs it to judge.
    case nothingToJudge(String)
}
