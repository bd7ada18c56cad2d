public import AppFlipCore
public import AsyncHTTPClient
public import Logging
import NIOCore
import NIOHTTP1

/// Step 3 against a real authorization endpoint, the embedded one or the partner's own: `GET authorize`
/// as the signed-in user, and the code taken from the redirect, which is never followed.
///
/// Every failure becomes an `AuthorizationFailure` whose reason says exactly why (`cancelled` when Google
/// should fall back to the browser flow, `unrecoverable` when the server denied or broke the protocol)
/// and a log line. Neither ever contains the code, the session credential or the query of a foreign
/// Location.
public struct AuthorizationEndpoint: AuthorizationCodeSource {
    /// The authorization endpoint, e.g. `http://127.0.0.1:8471/authorize`. It may carry a query of its own.
    public var url: String
    /// Sent with every request; nil sends none.
    public var credential: SessionCredential?
    /// The whole exchange, connect to last body byte, must finish within this; the body is capped at
    /// `OutboundBounds.oauthBodySize` (`OutboundBounds.oauth`).
    public var timeout: Duration
    private let httpClient: HTTPClient
    private let random: any RandomSource
    private let logger: Logger

    /// - Parameter httpClient: must not follow redirects: use `HTTPClient.Configuration.appFlipOAuth()`.
    public init(
        url: String,
        credential: SessionCredential?,
        httpClient: HTTPClient,
        timeout: Duration = .seconds(10),
        random: any RandomSource = SystemRandomSource(),
        logger: Logger
    ) {
        self.url = url
        self.credential = credential
        self.httpClient = httpClient
        self.timeout = timeout
        self.random = random
        self.logger = logger
    }

    /// Calls /authorize as the signed-in user and returns the code from the redirect.
    /// - Throws: an `AuthorizationFailure` whose App Flip error value Google is sent instead of a code.
    public func authorizationCode(for request: AuthorizationRequest) async throws(AuthorizationFailure) -> String {
        let state = Base64URL.encode(random.bytes(16))
        var query = FormParameters()
        query.append("response_type", "code")
        query.append("client_id", request.clientID)
        query.append("redirect_uri", request.redirectURI)
        if !request.scopes.isEmpty { query.append("scope", request.scopes.joined(separator: " ")) }
        query.append("state", state)

        var httpRequest = HTTPClientRequest(url: url + (url.contains("?") ? "&" : "?") + query.encoded)
        httpRequest.method = .GET
        credential?.apply(to: &httpRequest.headers)

        let metadata: Logger.Metadata = [
            "endpoint": "\(Self.redactedURL(url))", "client_id": "\(request.clientID)",
            "redirect_uri": "\(request.redirectURI)",
        ]
        do throws(AuthorizationFailure) {
            let location = try await fetchRedirect(httpRequest)
            let code = try Self.code(from: location, redirectURI: request.redirectURI, state: state, secrets: credential?.secrets ?? [])
            logger.info("authorization code obtained", metadata: metadata.merging(["code": "sha256:\(Fingerprint.of(code))"]) { $1 })
            return code
        } catch {
            logger.notice(
                "no authorization code",
                metadata: metadata.merging(["flip_error": "\(error.flipError.rawValue)", "reason": "\(error.reason)"]) { $1 }
            )
            throw error
        }
    }

    /// Sends the request and returns the Location of a 302 or 303; the body, read within the bounds, is not used.
    private func fetchRedirect(_ request: HTTPClientRequest) async throws(AuthorizationFailure) -> String {
        let response: BoundedResponse
        do throws(TransportFailure) {
            response = try await httpClient.exchange(request, bounds: .oauth(deadline: timeout), endpoint: Self.redactedURL(url))
        } catch {
            throw error.authorizationFailure
        }
        let status = response.status
        guard status == .found || status == .seeOther else {
            throw AuthorizationFailure(.cancelled, reason: Self.explain(status))
        }
        guard let location = response.headers.first(name: "Location") else {
            throw AuthorizationFailure(.cancelled, reason: "HTTP \(status.code) without a Location header")
        }
        return location
    }

    private static func explain(_ status: HTTPResponseStatus) -> String {
        switch status.code {
        case 401, 403:
            "HTTP \(status.code) instead of a redirect: the user is not signed in (the session credential is missing, expired or refused)"
        case 200:
            "HTTP 200 instead of a redirect: the endpoint showed a page (sign-in or consent?) instead of answering"
        case 400..<500:
            "HTTP \(status.code) instead of a redirect: the endpoint refused the request without redirecting (is client_id known and the redirect_uri registered exactly?)"
        case 500..<600:
            "HTTP \(status.code) instead of a redirect: the authorization server failed"
        default:
            "HTTP \(status.code) instead of a 302 redirect"
        }
    }

    /// The code from an authorization response Location, after checking it goes to exactly `redirectURI`
    /// and carries exactly `state`.
    /// `secrets` (the session credential) are redacted from any server text quoted in the reason.
    static func code(
        from location: String,
        redirectURI: String,
        state: String,
        secrets: [String] = []
    )
        throws(AuthorizationFailure) -> String
    {
        let prefix = redirectURI + (redirectURI.contains("?") ? "&" : "?")
        guard location.hasPrefix(prefix), !location.contains("#") else {
            throw AuthorizationFailure(
                .cancelled,
                reason: "redirected to \(redactedURL(location)) instead of the redirect_uri \(redirectURI) (a sign-in page?)"
            )
        }
        let parameters: FormParameters
        do {
            parameters = try FormParameters(parsing: location.dropFirst(prefix.count))
        } catch {
            throw AuthorizationFailure(.unrecoverable, reason: "the redirect's query is malformed: \(error)")
        }
        if let repeated = parameters.repeatedNames.first {
            throw AuthorizationFailure(.unrecoverable, reason: "the redirect repeats \(repeated)")
        }
        if let error = parameters["error"] {
            let description = parameters["error_description"].map { ": \(String($0.redacting(secrets).prefix(200)))" } ?? ""
            throw AuthorizationFailure(
                flipError(for: error),
                reason: "the endpoint answered error=\(String(error.redacting(secrets).prefix(64)))\(description)"
            )
        }
        guard let returnedState = parameters["state"] else {
            throw AuthorizationFailure(.unrecoverable, reason: "the redirect carries no state")
        }
        guard returnedState == state else {
            throw AuthorizationFailure(.unrecoverable, reason: "the redirect's state is not the state that was sent")
        }
        guard let code = parameters["code"], !code.isEmpty else {
            throw AuthorizationFailure(.unrecoverable, reason: "the redirect carries neither code nor error")
        }
        return code
    }

    /// Transient authorization errors let Google retry in the browser; everything else is a denial.
    static func flipError(for oauthError: String) -> FlipErrorCode {
        switch oauthError {
        case OAuthErrorCode.temporarilyUnavailable.rawValue, OAuthErrorCode.serverError.rawValue,
            "login_required", "interaction_required", "consent_required":
            .cancelled
        default:
            .unrecoverable
        }
    }

    /// A URL without its query or fragment: what a log may show of a Location that is not ours.
    static func redactedURL(_ url: String) -> String {
        String(url.prefix { $0 != "?" && $0 != "#" })
    }
}
