public import AppFlipCore

/// Where the token-endpoint checks get their fresh authorization codes: the partner app through appflipd
/// (a flip per code), or the authorization endpoint over HTTP. Each code is used by one check only.
public protocol AuditCodeSource: Sendable {
    /// A code issued for `redirectURI`, never used before; throws when none could be had, with why.
    func freshCode(redirectURI: AppFlipRedirectURI) async throws -> String
}

/// A code source that asks for the scopes it is given: the partner app through its flip link, and the
/// authorization endpoint directly, which `partner.scope` holds the app's codes against.
public protocol ScopedCodeSource: AuditCodeSource {
    /// A code for `scopes` (sent space-separated, as Google sends them) issued for `redirectURI`, never used before.
    func freshCode(redirectURI: AppFlipRedirectURI, scopes: [String]) async throws -> String
}

/// A code source of the audit's own, whose check holds the rule a code handed out twice breaks.
protocol CodeOrigin {
    /// `partner.code` or `authorize.code`.
    var codeCheck: CheckSpec { get }
}

/// A source gave no code, and ``Blame`` said whose the shortfall is: the check that asked for the code is
/// skipped with `state`, its own need `code`.
struct CodeShortfall: Error {
    var state: NeedState
}
