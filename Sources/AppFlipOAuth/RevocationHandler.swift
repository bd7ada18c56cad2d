import AppFlipConfiguration
import AppFlipCore
import FoundationEssentials
import Synchronization

/// `POST /revoke` (RFC 7009): the same body rules and client authentication as /token.
struct RevocationHandler: Sendable {
    let clients: [String: RegisteredClient]
    let store: AuthorizationStore

    func respond(contentType: String?, authorization: String?, body: String) -> TokenHandler.Reply {
        var attemptedBasic = authorization != nil
        do throws(TokenEndpointError) {
            let (client, form) = try TokenHandler.authenticate(
                contentType: contentType,
                authorization: authorization,
                body: body,
                clients: clients,
                attemptedBasic: &attemptedBasic
            )
            guard let token = form["token"] else { throw TokenEndpointError(.invalidRequest, "token is missing") }
            // RFC 7009 §2.1: an unknown hint is no error; the server searches every kind of token anyway.
            let hint = form["token_type_hint"].flatMap(TokenTypeHint.init(rawValue:))
            let hintNote = form["token_type_hint"].map { hint == nil ? " (token_type_hint \($0) ignored)" : "" } ?? ""
            let summary: String
            switch store.revoke(token: token, hint: hint, clientID: client.id) {
            case .unknown:
                summary = "nothing to revoke for \(client.id): unknown, expired or already revoked token sha256:\(Fingerprint.of(token))"
            case .accessToken:
                summary = "revoked access token sha256:\(Fingerprint.of(token)) of \(client.id)"
            case .refreshToken:
                summary = "revoked refresh token sha256:\(Fingerprint.of(token)) of \(client.id) and its token family"
            case .otherClient:
                throw TokenEndpointError(.unauthorizedClient, "the token was not issued to this client")
            }
            return TokenHandler.Reply(status: 200, body: [:], challengeBasic: false, summary: summary + hintNote)
        } catch {
            return TokenHandler.errorReply(error, attemptedBasic: attemptedBasic)
        }
    }
}

/// RFC 7009 §2.1 `token_type_hint`.
enum TokenTypeHint: String, Sendable, Hashable {
    case accessToken = "access_token"
    case refreshToken = "refresh_token"
}
