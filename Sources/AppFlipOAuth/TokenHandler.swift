import AppFlipConfiguration
import AppFlipCore
import FoundationEssentials

/// `POST /token` (RFC 6749 §4.1.3, §6): authenticates the client and runs the grant, without any HTTP.
struct TokenHandler: Sendable {
    /// The JSON body and status of an answer.
    struct Reply: Sendable, Hashable {
        /// 200, 400, or 401 for failed client authentication.
        var status: Int
        var body: [String: TokenResponseValue]
        /// True when the client tried HTTP Basic and failed: the 401 must carry `WWW-Authenticate`.
        var challengeBasic: Bool
        /// What the log may say: the outcome, never a token.
        var summary: String
    }

    static let maximumBodySize = 16 * 1024

    let clients: [String: RegisteredClient]
    let store: AuthorizationStore

    func respond(contentType: String?, authorization: String?, body: String) -> Reply {
        var attemptedBasic = authorization != nil
        do throws(TokenEndpointError) {
            let (client, form) = try Self.authenticate(
                contentType: contentType,
                authorization: authorization,
                body: body,
                clients: clients,
                attemptedBasic: &attemptedBasic
            )
            let tokens: AuthorizationStore.IssuedTokens
            switch form["grant_type"] {
            case nil:
                throw TokenEndpointError(.invalidRequest, "grant_type is missing")
            case "authorization_code":
                guard let code = form["code"] else { throw TokenEndpointError(.invalidRequest, "code is missing") }
                tokens = try store.redeem(
                    code: code,
                    clientID: client.id,
                    redirectURI: form["redirect_uri"],
                    verifier: form["code_verifier"]
                )
            case "refresh_token":
                guard let refreshToken = form["refresh_token"] else {
                    throw TokenEndpointError(.invalidRequest, "refresh_token is missing")
                }
                let scopes = form["scope"].map { $0.split(separator: " ").map(String.init) }
                tokens = try store.refresh(refreshToken: refreshToken, clientID: client.id, scopes: scopes)
            case let other?:
                throw TokenEndpointError(.unsupportedGrantType, "grant_type \(other) is not supported")
            }
            return Reply(
                status: 200,
                body: [
                    "access_token": .string(tokens.accessToken),
                    "token_type": .string("Bearer"),
                    "expires_in": .integer(tokens.expiresIn),
                    "refresh_token": .string(tokens.refreshToken),
                    "scope": .string(tokens.scopes.joined(separator: " ")),
                ],
                challengeBasic: false,
                summary: "issued tokens to \(client.id) (access sha256:\(Fingerprint.of(tokens.accessToken)))"
            )
        } catch {
            return Self.errorReply(error, attemptedBasic: attemptedBasic)
        }
    }

    /// The RFC 6749 §5.2 answer to a failed request: 401 for `invalid_client`, else 400.
    static func errorReply(_ error: TokenEndpointError, attemptedBasic: Bool) -> Reply {
        let status = error.code == .invalidClient ? 401 : 400
        return Reply(
            status: status,
            body: ["error": .string(error.code.rawValue), "error_description": .string(error.description)],
            challengeBasic: status == 401 && attemptedBasic,
            summary: "\(error.code.rawValue): \(error.description)"
        )
    }

    /// What /token and /revoke share: the form body, read strictly, and the client, authenticated (RFC 6749
    /// §2.3.1). `attemptedBasic` is set to whether the client tried HTTP Basic, for the 401's challenge.
    static func authenticate(
        contentType: String?,
        authorization: String?,
        body: String,
        clients: [String: RegisteredClient],
        attemptedBasic: inout Bool
    ) throws(TokenEndpointError) -> (RegisteredClient, FormParameters) {
        guard let contentType,
            contentType.split(separator: ";").first?.filter({ !$0.isWhitespace }).lowercased()
                == "application/x-www-form-urlencoded"
        else {
            throw TokenEndpointError(.invalidRequest, "the body must be application/x-www-form-urlencoded")
        }
        let form: FormParameters
        do {
            form = try FormParameters(parsing: body)
        } catch {
            throw TokenEndpointError(.invalidRequest, "the body is malformed: \(error)")
        }
        if let repeated = form.repeatedNames.first {
            throw TokenEndpointError(.invalidRequest, "\(repeated) is repeated")
        }
        let credentials = try ClientAuthentication.from(authorization: authorization, form: form)
        attemptedBasic = credentials.method == .basic
        guard let client = clients[credentials.clientID], credentials.authenticates(client) else {
            throw TokenEndpointError(.invalidClient, "client authentication failed")
        }
        return (client, form)
    }
}

/// An error the token endpoint answers with: the RFC 6749 §5.2 JSON body.
struct TokenEndpointError: Error, Sendable, Hashable, CustomStringConvertible {
    var code: OAuthErrorCode
    var description: String

    init(_ code: OAuthErrorCode, _ description: String) {
        self.code = code
        self.description = description
    }
}

/// A token endpoint JSON value: a string, an integer or a list of strings (the metadata's lists).
enum TokenResponseValue: Sendable, Hashable, Encodable {
    case string(String)
    case integer(Int)
    case strings([String])

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .string(let string): try container.encode(string)
        case .integer(let integer): try container.encode(integer)
        case .strings(let strings): try container.encode(strings)
        }
    }
}
