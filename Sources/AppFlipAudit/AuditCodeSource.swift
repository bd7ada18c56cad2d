public import AppFlipCore

/// Where the token-endpoint checks get their fresh authorization codes: the partner app through appflipd
/// (a flip per code), or the authorization endpoint over HTTP. Each code is used by one check only.
public protocol AuditCodeSource: Sendable {
    /// A code issued for `redirectURI`, never used before; throws when none could be had, with why.
    func freshCode(redirectURI: AppFlipRedirectURI) async throws -> String
}
