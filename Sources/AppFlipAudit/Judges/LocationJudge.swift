import AppFlipCore

/// `authorize.redirect-shape` on every redirect the authorization endpoint sent, whichever check asked: the
/// response travels in the redirect's query, each parameter once (RFC 6749 §3.1, §4.1.2, §4.1.2.1), with a
/// code or a registered error, never in a fragment and never posted by a page; and no Location, wherever it
/// points, carries a code or token in its fragment.
enum LocationJudge {
    /// The parameters of an authorization response (RFC 6749 §4.1.2, §4.1.2.1, §4.2.2; RFC 9207's `iss`;
    /// OpenID Connect's `id_token`).
    static let responseParameters: Set<String> = [
        "code", "state", "error", "error_description", "error_uri", "access_token", "token_type", "expires_in", "scope", "id_token",
        "refresh_token", "iss",
    ]
    /// RFC 6749 §4.1.2.1's error values, and those the OAuth Extensions Error Registry registers for the
    /// authorization endpoint (OpenID Connect Core §3.1.2.6, RFC 8707 §2, RFC 9396 §5).
    static let errorValues: Set<String> = [
        "invalid_request", "unauthorized_client", "access_denied", "unsupported_response_type", "invalid_scope", "server_error",
        "temporarily_unavailable", "interaction_required", "login_required", "account_selection_required", "consent_required",
        "invalid_request_uri", "invalid_request_object", "request_not_supported", "request_uri_not_supported", "registration_not_supported",
        "invalid_target", "invalid_authorization_details",
    ]

    static func judge(_ exchanges: [ExchangeRecorder.Exchange], into ledger: AuditLedger) {
        var judged = 0
        var problems: [String] = []
        for exchange in exchanges {
            guard case .authorization(let answer)? = exchange.answer else { continue }
            let label = "#\(answer.exchange) \(exchange.record.purpose)"
            let locations =
                answer.hops.compactMap { hop in hop.location.map { ("#\(hop.exchange)", $0) } }
                + (answer.pageRedirect.map { [("a page's redirect", $0)] } ?? [])
            for (source, location) in locations {
                if let problem = fragmentProblem(location) { problems.append("\(label): \(source): \(problem)") }
            }
            guard let location = answer.location, answer.redirectURIs.contains(URLDifference.base(of: location)) else {
                if answer.postsToRedirectURI {
                    judged += 1
                    problems.append("\(label): a page posts the response to the redirect_uri (form_post), which no request asked for")
                }
                continue
            }
            judged += 1
            if let problem = responseProblem(location), fragmentProblem(location) == nil { problems.append("\(label): \(problem)") }
        }
        guard judged > 0 || !problems.isEmpty else {
            ledger.set(.redirect, .nothingToJudge("no redirect to a redirect_uri was seen"))
            return
        }
        ledger.establish(.redirect)
        if problems.isEmpty {
            ledger.record(.authorizeRedirectShape, .held("\(judged) redirects to the redirect_uri, each with its response once in the query"))
        } else {
            ledger.record(.authorizeRedirectShape, .fail("\(problems.count) problem(s): " + problems.joined(separator: "; "), evidence: problems))
        }
    }

    /// What breaks the rules for an authorization response delivered at `location`; nil when none does.
    static func responseProblem(_ location: String) -> String? {
        if let problem = fragmentProblem(location) { return problem }
        let query = fields(of: query(of: location) ?? "")
        let names = query.map(\.name)
        // RFC 6749 §3.1 (with erratum 5708): a parameter it defines, never more than once; extensions are theirs.
        if let repeated = ["code", "state", "error", "error_description", "error_uri"].first(where: { name in names.filter { $0 == name }.count > 1 })
        {
            return "\(repeated) occurs \(names.filter { $0 == repeated }.count) times in the redirect (RFC 6749 §3.1: once)"
        }
        let fragmentNames = fields(of: fragment(of: location) ?? "").map(\.name).filter(responseParameters.contains)
        if !fragmentNames.isEmpty {
            return "the response's \(fragmentNames.joined(separator: ", ")) travels in the fragment, not the query (RFC 6749 §4.1.2)"
        }
        if let error = query.first(where: { $0.name == "error" })?.value, !errorValues.contains(error) {
            return "error=\(String(error.prefix(64))) is not an authorization endpoint error value (RFC 6749 §4.1.2.1)"
        }
        if !names.contains("code") && !names.contains("error") { return "the redirect carries neither code nor error (RFC 6749 §4.1.2)" }
        return nil
    }

    /// A code or token (by `SecretNames`) in `location`'s fragment, where a browser keeps it and scripts read it.
    static func fragmentProblem(_ location: String) -> String? {
        let secrets = fields(of: fragment(of: location) ?? "").map(\.name).filter { SecretNames.isSecret(name: $0) }
        guard !secrets.isEmpty else { return nil }
        return
            "the Location's fragment carries \(secrets.joined(separator: ", ")) (RFC 6749 §4.1.2: the response goes in the query; a fragment hands it to every script of the page)"
    }

    /// The form-decoded value of the query parameter `name`, the first one.
    static func parameter(_ name: String, in location: String) -> String? {
        fields(of: query(of: location) ?? "").first { $0.name == name }?.value
    }

    /// The form-decoded value of the parameter `name` in the query, else in the fragment.
    static func parameterInQueryOrFragment(_ name: String, in location: String) -> String? {
        parameter(name, in: location) ?? fields(of: fragment(of: location) ?? "").first { $0.name == name }?.value
    }

    private static func query(of location: String) -> String? {
        let beforeFragment = location.prefix { $0 != "#" }
        return beforeFragment.firstIndex(of: "?").map { String(beforeFragment[beforeFragment.index(after: $0)...]) }
    }

    private static func fragment(of location: String) -> String? {
        location.firstIndex(of: "#").map { String(location[location.index(after: $0)...]) }
    }

    private static func fields(of text: String) -> [(name: String, value: String)] {
        text.split(separator: "&", omittingEmptySubsequences: true).map { pair in
            let halves = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = PercentEncoding.formDecode(halves[0]) ?? String(halves[0])
            let value = halves.count > 1 ? PercentEncoding.formDecode(halves[1]) ?? String(halves[1]) : ""
            return (name, value)
        }
    }
}
