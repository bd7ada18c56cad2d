import AppFlipConfiguration
import AppFlipCore
import Logging

/// `GET /authorize` (RFC 6749 §4.1.1): decides what one authorization request gets, without any HTTP.
///
/// Order matters for safety: client_id and redirect_uri are checked first, and while either is in doubt
/// the answer is an error page, never a redirect (§4.1.2.1, RFC 9700 §4.1). Only once redirect_uri is
/// known to be registered for the client, byte for byte, may errors travel to it.
struct AuthorizeHandler: Sendable {
    enum Outcome: Sendable, Hashable {
        /// An HTTP error page: client_id or redirect_uri cannot be trusted.
        case errorPage(reason: String)
        /// No valid session: the user must sign in first (HTTP 401).
        case signInRequired
        /// A 302 to the registered redirect_uri, with a code or an error.
        case redirect(location: String, summary: Summary)
    }

    /// What the log may say about a redirect: never the code itself.
    enum Summary: Sendable, Hashable {
        case code(clientID: String, username: String, fingerprint: String)
        case error(OAuthErrorCode, description: String)
    }

    let clients: [String: RegisteredClient]
    let sessions: SignInSessions
    let store: AuthorizationStore
    let logger: Logger

    func respond(query: String?, sessionToken: String?) -> Outcome {
        do throws(Stop) {
            let parameters = try Self.parameters(of: query)
            let target = try redirectTarget(parameters)
            // From here on, redirect_uri is trusted.
            let (scopes, challenge) = try check(parameters, for: target)
            guard let user = sessionToken.flatMap(sessions.user(forToken:)) else {
                return .signInRequired
            }
            guard !user.disabled else {
                return target.error(.accessDenied, "the account is disabled")
            }
            let code = store.issueCode(
                clientID: target.clientID,
                redirectURI: target.redirectURI,
                username: user.username,
                scopes: scopes,
                challenge: challenge
            )
            var response = FormParameters()
            response.append("code", code)
            if let state = target.state { response.append("state", state) }
            return .redirect(
                location: Self.location(target.redirectURI, response),
                summary: .code(clientID: target.clientID, username: user.username, fingerprint: Fingerprint.of(code))
            )
        } catch {
            return error.outcome
        }
    }

    /// Ends a request early with the outcome it gets.
    private struct Stop: Error {
        let outcome: Outcome
    }

    /// A client and a redirect URI registered for it, byte for byte: where an answer may go.
    private struct RedirectTarget {
        let client: RegisteredClient
        let clientID: String
        let redirectURI: String
        /// The request's `state`, returned with every redirect.
        let state: String?

        /// A redirect with an error (RFC 6749 §4.1.2.1).
        func error(_ error: OAuthErrorCode, _ description: String) -> Outcome {
            var response = FormParameters()
            response.append("error", error.rawValue)
            response.append("error_description", description)
            if let state { response.append("state", state) }
            return .redirect(location: AuthorizeHandler.location(redirectURI, response), summary: .error(error, description: description))
        }

        /// Stops the request with ``error(_:_:)``.
        func refuse(_ error: OAuthErrorCode, _ description: String) -> Stop {
            Stop(outcome: self.error(error, description))
        }
    }

    /// The query's parameters; an error page when it cannot be decoded.
    private static func parameters(of query: String?) throws(Stop) -> FormParameters {
        do {
            return try FormParameters(parsing: query ?? "")
        } catch {
            throw Stop(outcome: .errorPage(reason: "The query string is malformed: \(error)."))
        }
    }

    /// `client_id` and `redirect_uri`, each once, the client registered and the URI registered for it; while
    /// either is in doubt, the answer is an error page.
    private func redirectTarget(_ parameters: FormParameters) throws(Stop) -> RedirectTarget {
        let clientID: String
        switch parameters.single("client_id") {
        case .absent: throw Stop(outcome: .errorPage(reason: "client_id is missing."))
        case .repeated: throw Stop(outcome: .errorPage(reason: "client_id is repeated."))
        case .value(let value): clientID = value
        }
        guard let client = clients[clientID], Exact(client.id) == Exact(clientID) else {
            throw Stop(outcome: .errorPage(reason: "client_id is not a registered client."))
        }
        let redirectURI: String
        switch parameters.single("redirect_uri") {
        case .absent: throw Stop(outcome: .errorPage(reason: "redirect_uri is missing."))
        case .repeated: throw Stop(outcome: .errorPage(reason: "redirect_uri is repeated."))
        case .value(let value): redirectURI = value
        }
        guard client.redirectURIs.contains(where: { Exact($0) == Exact(redirectURI) }) else {
            throw Stop(outcome: .errorPage(reason: "redirect_uri is not registered for this client (redirect URIs must match exactly)."))
        }
        return RedirectTarget(client: client, clientID: clientID, redirectURI: redirectURI, state: parameters["state"])
    }

    /// The request's own parameters, once its redirect URI is trusted: no repeated name, `response_type`
    /// `code`, the scopes (the client's own without `scope`) and the PKCE challenge if any.
    private func check(_ parameters: FormParameters, for target: RedirectTarget) throws(Stop) -> (scopes: [String], challenge: PKCEChallenge?) {
        if let repeated = parameters.repeatedNames.first {
            throw target.refuse(.invalidRequest, "\(repeated) is repeated")
        }
        note(locale: parameters["user_locale"])
        guard let responseType = parameters["response_type"] else {
            throw target.refuse(.invalidRequest, "response_type is missing")
        }
        guard responseType == "code" else {
            throw target.refuse(.unsupportedResponseType, "only response_type=code is supported")
        }
        var scopes = target.client.scopes
        if let scope = parameters["scope"] {
            scopes = scope.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
            if let unknown = scopes.first(where: { !target.client.scopes.contains($0) }) {
                throw target.refuse(.invalidScope, "scope \(unknown) is not allowed for this client")
            }
        }
        return (scopes, try challenge(parameters, for: target))
    }

    /// Google sends the user's language as a BCP 47 tag. The server has no pages to localise; a valid tag
    /// is noted, an invalid one ignored, never an error, and neither silently.
    private func note(locale: String?) {
        guard let locale else { return }
        if Self.isWellFormedLanguageTag(locale) {
            logger.debug("authorization request user_locale", metadata: ["user_locale": "\(locale)"])
        } else {
            logger.debug(
                "authorization request user_locale ignored: not a BCP 47 language tag",
                metadata: ["user_locale": "\(String(locale.prefix(64)).debugDescription)"]
            )
        }
    }

    /// The PKCE challenge (RFC 7636 §4.3), nil without one; `plain` when no method is named.
    private func challenge(_ parameters: FormParameters, for target: RedirectTarget) throws(Stop) -> PKCEChallenge? {
        switch (parameters["code_challenge"], parameters["code_challenge_method"]) {
        case (nil, nil):
            return nil
        case (nil, .some):
            throw target.refuse(.invalidRequest, "code_challenge_method was sent without code_challenge")
        case (.some(let value), let method):
            guard let method = PKCEChallenge.Method(rawValue: method ?? "plain") else {
                throw target.refuse(.invalidRequest, "code_challenge_method must be S256 or plain")
            }
            guard PKCEChallenge.isWellFormed(value) else {
                throw target.refuse(.invalidRequest, "code_challenge must be 43-128 characters of [A-Za-z0-9-._~]")
            }
            return PKCEChallenge(value: value, method: method)
        }
    }

    /// True for a well-formed BCP 47 language tag (RFC 5646 §2.1, syntax only): a 2–8 letter primary
    /// language subtag (or `x`/`i` for private use and grandfathered tags), then subtags of 1–8 ASCII letters
    /// and digits separated by `-`. `en`, `en-US`, `zh-Hant-TW`, `de-CH-1901` pass; `en_US`, `-en`, `e` fail.
    static func isWellFormedLanguageTag(_ tag: String) -> Bool {
        let subtags = tag.split(separator: "-", omittingEmptySubsequences: false)
        guard let primary = subtags.first, tag.utf8.count <= 64,
            primary.utf8.allSatisfy({ ($0 | 0x20) >= UInt8(ascii: "a") && ($0 | 0x20) <= UInt8(ascii: "z") })
        else { return false }
        let privateUse = primary.lowercased() == "x" || primary.lowercased() == "i"
        guard (2...8).contains(primary.utf8.count) || (privateUse && subtags.count > 1) else { return false }
        return subtags.dropFirst().allSatisfy { subtag in
            (1...8).contains(subtag.utf8.count)
                && subtag.utf8.allSatisfy {
                    ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9")) || (($0 | 0x20) >= UInt8(ascii: "a") && ($0 | 0x20) <= UInt8(ascii: "z"))
                }
        }
    }

    /// The redirect URI with the response parameters added to its query, keeping any query it already has
    /// (RFC 6749 §3.1.2).
    static func location(_ redirectURI: String, _ parameters: FormParameters) -> String {
        redirectURI + (redirectURI.contains("?") ? "&" : "?") + parameters.encoded
    }
}
