import AppFlipCore

/// What one authorization request came back with, as the user's browser would end up: the redirects on the
/// authorization server's own origin followed (a sign-in or consent step, at most ``maximumHops``), and a
/// page that forwards to the redirect_uri read as the redirect it is (RFC 6749 §1.7: any user-agent
/// redirection is allowed). A Location is kept whole only in memory; its description is redacted.
struct AuthorizationAnswer: Sendable, CustomStringConvertible {
    /// One answer of the chain.
    struct Hop: Sendable {
        /// The exchange (``RecordedExchange/id``).
        var exchange: Int
        /// The URL requested.
        var url: String
        var status: UInt
        var location: String?
        var contentType: String?
    }

    static let maximumHops = 5

    /// Every answer, in order; the last is the one the checks judge.
    var hops: [Hop]
    /// The `redirect_uri` values the request sent (two for a repeated parameter).
    var redirectURIs: [String] = []
    /// A redirect the final page makes to the redirect_uri (an HTML or script redirect), when it makes one.
    var pageRedirect: String?
    /// The final page posts a form to the redirect_uri (the form_post response mode, which no request asked for).
    var postsToRedirectURI = false

    var final: Hop { hops[hops.count - 1] }
    var status: UInt { final.status }
    /// Where the browser is sent at the end: the final Location, or the page's own redirect.
    var location: String? { final.location ?? pageRedirect }
    /// A redirect at the end of the chain, by HTTP or by the page.
    var redirected: Bool { ((300..<400).contains(status) && final.location != nil) || pageRedirect != nil }
    /// The first exchange of the chain.
    var exchange: Int { hops[0].exchange }
    /// Whether a redirect on the server's own origin was followed.
    var followed: Bool { hops.count > 1 }

    /// The chain with every Location's parameters, codes and tokens as a length and a fingerprint.
    var description: String {
        hops.enumerated().map { index, hop in
            let answer = hop.location.map { "HTTP \(hop.status) to \(LocationText.shown($0))" } ?? "HTTP \(hop.status), no redirect"
            return index == 0 ? "#\(hop.exchange) \(answer)" : "then #\(hop.exchange) GET \(LocationText.shown(hop.url)): \(answer)"
        }.joined(separator: ", ") + (pageRedirect.map { ", a page that forwards to \(LocationText.shown($0))" } ?? "")
            + (postsToRedirectURI ? ", a page that posts a form to the redirect_uri" : "")
    }
}

/// Reading a page the authorization server answered with: does it forward the browser to the redirect_uri
/// (a meta refresh, a script or a link carrying the response), or post a form to it?
enum AuthorizationPage {
    /// The first URL in `body` that starts with `redirectURI` and carries a query or fragment, once the page's
    /// HTML and script escapes are undone.
    static func redirect(in body: [UInt8], to redirectURI: String) -> String? {
        let text = unescaped(String(decoding: body, as: UTF8.self))
        var searchStart = text.startIndex
        while let found = text[searchStart...].firstRange(of: redirectURI) {
            let rest = text[found.upperBound...]
            if rest.first == "?" || rest.first == "#" {
                let end = rest.firstIndex { "\"'<> \t\r\n".contains($0) } ?? text.endIndex
                return String(text[found.lowerBound..<end])
            }
            searchStart = found.upperBound
        }
        return nil
    }

    /// Whether `body` holds a form that posts to `redirectURI`.
    static func postsForm(_ body: [UInt8], to redirectURI: String) -> Bool {
        let text = unescaped(String(decoding: body, as: UTF8.self)).lowercased()
        guard let form = text.firstRange(of: "<form") else { return false }
        let tag = text[form.lowerBound...].prefix { $0 != ">" }
        return tag.contains("post") && tag.contains(redirectURI.lowercased())
    }

    private static func unescaped(_ text: String) -> String {
        text.replacing("&amp;", with: "&").replacing("&#38;", with: "&").replacing("&#x26;", with: "&").replacing("&#47;", with: "/")
            .replacing("&#x2F;", with: "/").replacing("&#x2f;", with: "/").replacing("\\/", with: "/").replacing("&quot;", with: "\"")
            .replacing("\\u0026", with: "&")
    }
}
