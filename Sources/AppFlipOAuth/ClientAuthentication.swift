import AppFlipConfiguration
import AppFlipCore
import Crypto
import FoundationEssentials

/// Who a token request claims to be, and how it proves it (RFC 6749 §2.3.1): HTTP Basic or
/// `client_secret_post`, exactly one of them.
struct ClientAuthentication: Sendable, Hashable {
    enum Method: Sendable, Hashable {
        case basic
        case post
    }

    var clientID: String
    var secret: String
    var method: Method

    /// Reads the credentials from the Authorization header and the form. Errors are `invalid_request` for
    /// ambiguity and `invalid_client` for no usable credentials.
    static func from(authorization: String?, form: FormParameters) throws(TokenEndpointError) -> ClientAuthentication {
        let postedID = form.single("client_id")
        let postedSecret = form.single("client_secret")
        if postedID == .repeated || postedSecret == .repeated {
            throw TokenEndpointError(.invalidRequest, "client_id or client_secret is repeated")
        }
        if let authorization {
            guard let basic = parseBasic(authorization) else {
                throw TokenEndpointError(.invalidClient, "the Authorization header is not valid HTTP Basic")
            }
            guard postedSecret == .absent else {
                throw TokenEndpointError(
                    .invalidRequest,
                    "the client authenticated with both HTTP Basic and client_secret; use exactly one"
                )
            }
            if case .value(let id) = postedID, id != basic.clientID {
                throw TokenEndpointError(.invalidRequest, "client_id in the body differs from the HTTP Basic user")
            }
            return ClientAuthentication(clientID: basic.clientID, secret: basic.secret, method: .basic)
        }
        guard case .value(let id) = postedID, case .value(let secret) = postedSecret else {
            throw TokenEndpointError(.invalidClient, "no client authentication: send HTTP Basic or client_id and client_secret")
        }
        return ClientAuthentication(clientID: id, secret: secret, method: .post)
    }

    /// True when the secret is the client's. Compares digests in constant time.
    func authenticates(_ client: RegisteredClient) -> Bool {
        Exact(client.id) == Exact(clientID) && SHA256.hash(data: Array(secret.utf8)) == SHA256.hash(data: Array(client.secret.utf8))
    }

    /// `Basic base64(urlencode(id) ":" urlencode(secret))`, the form-encoding of RFC 6749 §2.3.1 undone.
    private static func parseBasic(_ header: String) -> (clientID: String, secret: String)? {
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "basic",
            let decoded = Data(base64Encoded: String(parts[1])),
            let text = String(validating: decoded, as: UTF8.self),
            let colon = text.utf8.firstIndex(of: UInt8(ascii: ":")),
            let id = try? FormParameters.decode(text.utf8[..<colon]),
            let secret = try? FormParameters.decode(text.utf8[text.utf8.index(after: colon)...]),
            !id.isEmpty
        else { return nil }
        return (id, secret)
    }
}
