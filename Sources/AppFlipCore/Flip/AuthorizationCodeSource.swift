/// Step 3 of App Flip: the partner app obtains an authorization code from its OAuth2 server for the
/// signed-in user. The core never performs I/O, so whoever can reach a server (the embedded one, or the
/// user's own endpoint) conforms to this and is injected.
public protocol AuthorizationCodeSource: Sendable {
    func authorizationCode(for request: AuthorizationRequest) async throws(AuthorizationFailure) -> String
}
