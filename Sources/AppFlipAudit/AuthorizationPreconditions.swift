import AppFlipCore

/// The authorization endpoint's preconditions, established once on a valid request as Google sends it:
/// `authorize.sign-in` (the credential is accepted: the answer is a redirect to the redirect_uri, not a
/// login page, 401 or 403) and `authorize.code` (the redirect carries a code; when it does not, the same
/// request with an S256 `code_challenge` tells a server that requires PKCE, which no App Flip link carries).
extension AuthorizationEndpointAudit {
    func preconditions() async throws(AuditUnreachable) -> [AuditResult] {
        let state = "appflip-audit-sign-in"
        let answer = try await authorize(clientID: target.clientID, redirectURI: redirectURI.string, state: state)
        let evidence = ["GET \(String(target.url.prefix { $0 != "?" })) with the sign-in credential, redirect_uri \(redirectURI): \(answer)"]
        let onRedirectURI = answer.location.map { URLDifference.base(of: $0) == redirectURI.string } ?? false
        guard answer.redirected && onRedirectURI else {
            let what: String
            if answer.status == 401 || answer.status == 403 {
                what = "the sign-in credential was refused: \(answer)"
            } else if answer.redirected {
                what = "the sign-in credential was refused: a valid request was sent away from its redirect_uri, as to a login page: \(answer)"
            } else {
                what =
                    "a valid request got \(answer), neither a redirect to its redirect_uri nor a sign-in refusal"
                    + ((400..<500).contains(answer.status) ? " (is --client-id registered with the 12 App Flip redirect URIs?)" : "")
            }
            return [
                AuditResult(.authorizeSignIn, .couldNotRun, "could not run: \(what)", evidence: evidence),
                AuditResult(.authorizeCode, .skipped, "needs authorize.sign-in"),
            ]
        }
        let signIn = AuditResult(.authorizeSignIn, .pass, "a valid request was redirected to its redirect_uri", evidence: evidence)
        if case .code? = verdict(answer, redirectURI: redirectURI.string, state: state)?.outcome {
            return [signIn, AuditResult(.authorizeCode, .pass, "a valid request without code_challenge got a code", evidence: evidence)]
        }
        let verifier = "appflip-audit-pkce-" + (0..<4).map { _ in String(UInt64.random(in: .min ... .max), radix: 36) }.joined()
        let withPKCE = try await authorize(
            clientID: target.clientID,
            redirectURI: redirectURI.string,
            state: state,
            extra: [("code_challenge", PKCEProbe.s256(verifier: verifier)), ("code_challenge_method", "S256")]
        )
        let probe = evidence + ["the same request with code_challenge (S256): \(withPKCE)"]
        if case .code? = verdict(withPKCE, redirectURI: redirectURI.string, state: state)?.outcome {
            return [
                signIn,
                AuditResult(
                    .authorizeCode,
                    .fail,
                    "the server requires PKCE for Google's client: a request without code_challenge, as every App Flip link is, got \(answer); with code_challenge it gets a code (Google's token request carries no code_verifier either)",
                    evidence: probe
                ),
            ]
        }
        return [
            signIn,
            AuditResult(.authorizeCode, .couldNotRun, "could not run: a valid request got \(answer), no code, with or without PKCE", evidence: probe),
        ]
    }
}

/// A `Location` as a report may show it: every query and fragment parameter by name, with its value as
/// sent, but a code, token or other secret (by `SecretNames`) as its length and fingerprint.
enum LocationText {
    static func shown(_ location: String) -> String {
        guard let mark = location.firstIndex(where: { $0 == "?" || $0 == "#" }) else { return location }
        var text = String(location[..<mark])
        var separator = location[mark]
        for part in location[location.index(after: mark)...].split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false) {
            let pairs = part.split(separator: "&", omittingEmptySubsequences: false).map { pair -> String in
                let halves = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                let name = String(halves[0])
                guard halves.count == 2 else { return name }
                let value = String(halves[1])
                if SecretNames.isSecret(name: PercentEncoding.formDecode(name) ?? name) {
                    return "\(name)=(\(value.utf8.count) bytes, sha256:\(Fingerprint.of(value)))"
                }
                return "\(name)=\(value.count > 120 ? String(value.prefix(120)) + "…" : value)"
            }
            text += String(separator) + pairs.joined(separator: "&")
            separator = "#"
        }
        return text
    }
}
