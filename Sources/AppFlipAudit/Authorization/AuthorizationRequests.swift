import AppFlipCore
import AppFlipHTTPClient
import AsyncHTTPClient
import NIOCore
import NIOHTTP1

/// The authorization requests, as Google's and the partner app's requests are written, with the sign-in
/// credential: a redirect on the authorization server's own origin is followed as the browser would (a sign-in
/// or consent step), never one elsewhere; every exchange is recorded.
extension AuthorizationEndpointAudit {
    func authorize(
        clientID: String?,
        redirectURI: String,
        state: String,
        scopes: [String]? = nil,
        extra: [(name: String, value: String)] = [],
        for purpose: String
    ) async throws(AuditUnreachable) -> AuthorizationAnswer {
        try await authorize(fields: fields(clientID: clientID, redirectURI: redirectURI, state: state, scopes: scopes) + extra, for: purpose)
    }

    /// A valid request's parameters, in the order Google writes them.
    func fields(clientID: String?, redirectURI: String, state: String, scopes: [String]? = nil) -> [(name: String, value: String)] {
        var fields: [(name: String, value: String)] = [("response_type", "code")]
        if let clientID { fields.append(("client_id", clientID)) }
        fields.append(("redirect_uri", redirectURI))
        let scopes = scopes ?? target.scopes
        if !scopes.isEmpty { fields.append(("scope", scopes.joined(separator: " "))) }
        fields.append(("state", state))
        return fields
    }

    /// The request with exactly `fields`, in their order.
    func authorize(fields: [(name: String, value: String)], for purpose: String) async throws(AuditUnreachable) -> AuthorizationAnswer {
        let redirectURI = fields.first { $0.name == "redirect_uri" }?.value ?? ""
        var url = target.url + (target.url.contains("?") ? "&" : "?") + FormEncoding.encode(fields)
        var hops: [AuthorizationAnswer.Hop] = []
        var body: [UInt8] = []
        while true {
            let (hop, received) = try await get(url, for: hops.isEmpty ? purpose : "\(purpose) (following the server's own redirect)")
            hops.append(hop)
            body = received
            guard hops.count <= AuthorizationAnswer.maximumHops, (300..<400).contains(hop.status), let location = hop.location,
                let next = LocationResolver.resolve(location, against: url), LocationResolver.sameOrigin(next, target.url),
                !redirectURIs(of: fields).contains(URLDifference.base(of: next))
            else { break }
            url = next
        }
        var answer = AuthorizationAnswer(hops: hops)
        answer.redirectURIs = redirectURIs(of: fields)
        if !(300..<400).contains(answer.status) && !body.isEmpty && !redirectURI.isEmpty {
            answer.pageRedirect = AuthorizationPage.redirect(in: body, to: redirectURI)
            answer.postsToRedirectURI = answer.pageRedirect == nil && AuthorizationPage.postsForm(body, to: redirectURI)
        }
        context.exchanges.attach(.authorization(answer), to: hops[0].exchange)
        return answer
    }

    private func redirectURIs(of fields: [(name: String, value: String)]) -> [String] {
        fields.filter { $0.name == "redirect_uri" }.map(\.value)
    }

    /// One GET with the sign-in credential, recorded.
    private func get(_ url: String, for purpose: String) async throws(AuditUnreachable) -> (AuthorizationAnswer.Hop, [UInt8]) {
        var request = HTTPClientRequest(url: url)
        target.credential?.apply(to: &request.headers)
        let endpoint = String(target.url.prefix { $0 != "?" })
        let sending = ExchangeRecorder.Sending(endpoint: .authorization, purpose: purpose, method: "GET", url: url, headers: request.headers)
        let httpClient = httpClient
        let bounds = bounds
        let send = { try await httpClient.exchange(request, bounds: bounds, endpoint: "the authorization endpoint \(endpoint)") }
        let outcome = try await context.exchanges.perform(sending, exchange: send) { id, response in
            let hop = AuthorizationAnswer.Hop(
                exchange: id,
                url: url,
                status: response.status.code,
                location: response.headers.first(name: "Location"),
                contentType: response.headers.first(name: "Content-Type")
            )
            return (nil, hop)
        }
        return (outcome.value, outcome.response.body)
    }
}

/// Where a `Location` sends the browser, and whether that stays on the authorization server's own origin.
enum LocationResolver {
    /// `location` resolved against `base` (RFC 3986 §5.2, for the forms servers send: absolute, network-path,
    /// absolute-path and relative-path references); nil when `base` is not a URL.
    static func resolve(_ location: String, against base: String) -> String? {
        if location.contains("://") { return location }
        guard let url = try? RawURL(base) else { return nil }
        let origin = "\(url.scheme)://\(url.userinfo.map { $0 + "@" } ?? "")\(url.host)\(url.port.map { ":" + $0 } ?? "")"
        if location.hasPrefix("//") { return url.scheme + ":" + location }
        if location.hasPrefix("/") { return origin + location }
        if location.hasPrefix("?") { return origin + url.path + location }
        let directory = url.path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        return origin + directory + "/" + location
    }

    /// Whether `a` and `b` share scheme, host and port (the port as written; none is the scheme's default).
    static func sameOrigin(_ a: String, _ b: String) -> Bool {
        guard let first = try? RawURL(a), let second = try? RawURL(b) else { return false }
        return first.normalizedScheme == second.normalizedScheme && first.normalizedHost == second.normalizedHost
            && (first.port ?? defaultPort(first.normalizedScheme)) == (second.port ?? defaultPort(second.normalizedScheme))
    }

    private static func defaultPort(_ scheme: String) -> String { scheme == "https" ? "443" : "80" }
}
