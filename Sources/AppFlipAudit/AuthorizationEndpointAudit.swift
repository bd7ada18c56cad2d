public import AppFlipCore
public import AppFlipHTTPClient
public import AsyncHTTPClient
import NIOCore
import NIOHTTP1

/// The authorization-endpoint checks over HTTP, never following a redirect: the 12 redirect URIs get a
/// code, lookalikes and an unknown client get no redirect (RFC 6749 §4.1.2.1, RFC 9700 §4.1), the state
/// comes back byte for byte. It also supplies codes to the token-endpoint checks.
public struct AuthorizationEndpointAudit: ScopedCodeSource {
    /// The endpoint, client and user.
    public var target: AuthorizationEndpointTarget
    /// The redirect URI of the state battery and the lookalikes' original.
    public var redirectURI: AppFlipRedirectURI
    /// The bounds of each request: `OutboundBounds.oauth()` unless a test shortens them.
    public var bounds: OutboundBounds
    /// How many independent requests of a family (the 12 redirect URIs, the lookalikes, the states) may be
    /// in flight at once (`--concurrency`).
    public var concurrency: Int = Auditor.defaultConcurrency
    private let httpClient: HTTPClient

    /// An audit of `target`; `httpClient` must not follow redirects (`HTTPClient.Configuration.appFlipOAuth()`).
    public init(
        target: AuthorizationEndpointTarget,
        redirectURI: AppFlipRedirectURI,
        httpClient: HTTPClient,
        bounds: OutboundBounds = .oauth()
    ) {
        self.target = target
        self.redirectURI = redirectURI
        self.httpClient = httpClient
        self.bounds = bounds
    }

    /// What one authorization request came back with; the Location is kept whole only in memory.
    struct Answer: CustomStringConvertible {
        var status: UInt
        var location: String?

        var redirected: Bool { (300..<400).contains(status) && location != nil }

        /// The answer with the Location's parameters, codes and tokens as a length and a fingerprint.
        var description: String {
            guard let location else { return "HTTP \(status), no redirect" }
            return "HTTP \(status) to \(LocationText.shown(location))"
        }
    }

    /// Runs every authorization-endpoint check, the preconditions first: a check that needs what a
    /// precondition could not establish is skipped, saying which. Throws only when the endpoint cannot be
    /// reached.
    public func run() async throws(AuditUnreachable) -> [AuditResult] {
        var results = try await preconditions()
        let signedIn = results.contains { $0.check == .authorizeSignIn && $0.outcome == .pass }
        let yieldsCodes = results.contains { $0.check == .authorizeCode && $0.outcome == .pass }
        guard signedIn else {
            let rest: [AuditCheck] = [.authorizeRedirectURIs, .authorizeLookalikeRedirect, .authorizeUnknownClient, .authorizeState]
            return results + rest.map { AuditResult($0, .skipped, "needs authorize.sign-in") }
        }
        if yieldsCodes {
            results.append(try await redirectURIs())
            results.append(try await states())
        } else {
            results += [
                AuditResult(.authorizeRedirectURIs, .skipped, "needs authorize.code"), AuditResult(.authorizeState, .skipped, "needs authorize.code"),
            ]
        }
        results.append(try await lookalikes())
        results.append(try await unknownClient())
        return results
    }

    private func redirectURIs() async throws(AuditUnreachable) -> AuditResult {
        var failures: [String] = []
        let probes = AppFlipRedirectURI.all.enumerated().map { (uri: $0.element, state: "appflip-audit-uri-\($0.offset)") }
        let answers = try await BoundedProbes.run(probes, limit: concurrency) { probe throws(AuditUnreachable) in
            try await authorize(clientID: target.clientID, redirectURI: probe.uri.string, state: probe.state)
        }
        for (probe, answer) in zip(probes, answers) {
            if case .code? = verdict(answer, redirectURI: probe.uri.string, state: probe.state)?.outcome, answer.redirected { continue }
            failures.append("\(probe.uri): \(answer.description)")
        }
        return failures.isEmpty
            ? AuditResult(.authorizeRedirectURIs, .pass, "each of the 12 was redirected to with a code and the state")
            : AuditResult(
                .authorizeRedirectURIs,
                .fail,
                "\(failures.count) of 12 got no code: " + failures.joined(separator: "; "),
                evidence: failures
            )
    }

    private func lookalikes() async throws(AuditUnreachable) -> AuditResult {
        var evidence: [String] = []
        var failures: [String] = []
        let lookalikes = LookalikeRedirect.all(of: redirectURI)
        let answers = try await BoundedProbes.run(lookalikes.map(\.uri), limit: concurrency) { uri throws(AuditUnreachable) in
            try await authorize(clientID: target.clientID, redirectURI: uri, state: "appflip-audit-lookalike")
        }
        for (lookalike, answer) in zip(lookalikes, answers) {
            evidence.append("\(lookalike.label) \(lookalike.uri): \(answer.description)")
            if answer.redirected { failures.append("\(lookalike.label) \(lookalike.uri): \(answer.description)") }
        }
        let repeated = LookalikeRedirect.repeated(with: redirectURI)
        let repeatedAnswers = try await BoundedProbes.run(repeated.map(\.values), limit: concurrency) { values throws(AuditUnreachable) in
            try await authorize(
                clientID: target.clientID,
                redirectURI: values[0],
                state: "appflip-audit-lookalike",
                extra: [("redirect_uri", values[1])]
            )
        }
        for ((label, _), answer) in zip(repeated, repeatedAnswers) {
            evidence.append("\(label): \(answer.description)")
            // Refusing is right; so is a redirect to the registered URI itself. Anywhere else gets the code.
            if answer.redirected, answer.location.map({ String($0.prefix { $0 != "?" }) }) != redirectURI.string {
                failures.append("\(label): \(answer.description)")
            }
        }
        return failures.isEmpty
            ? AuditResult(.authorizeLookalikeRedirect, .pass, "\(evidence.count) lookalikes, none redirected", evidence: evidence)
            : AuditResult(
                .authorizeLookalikeRedirect,
                .fail,
                "\(failures.count) of \(evidence.count) lookalikes redirected: " + failures.joined(separator: "; "),
                evidence: evidence
            )
    }

    private func unknownClient() async throws(AuditUnreachable) -> AuditResult {
        let variants = WrongClientID.all(of: target.clientID)
        let answers = try await BoundedProbes.run(variants, limit: concurrency) { variant throws(AuditUnreachable) in
            try await authorize(clientID: variant.value, redirectURI: redirectURI.string, state: "appflip-audit-client")
        }
        var evidence: [String] = []
        var failures: [String] = []
        for (variant, answer) in zip(variants, answers) {
            let sent = variant.value.map { "client_id \(String(reflecting: $0))" } ?? "no client_id"
            evidence.append("\(variant.label), \(sent): \(answer)")
            if answer.redirected { failures.append("\(variant.label) (\(sent)): \(answer)") }
        }
        return failures.isEmpty
            ? AuditResult(.authorizeUnknownClient, .pass, "\(evidence.count) unknown client_ids, none redirected", evidence: evidence)
            : AuditResult(
                .authorizeUnknownClient,
                .fail,
                "\(failures.count) of \(evidence.count) unknown client_ids redirected: " + failures.joined(separator: "; "),
                evidence: evidence
            )
    }

    private func states() async throws(AuditUnreachable) -> AuditResult {
        var failures: [String] = []
        let answers = try await BoundedProbes.run(HostileStates.all.map(\.1), limit: concurrency) { state throws(AuditUnreachable) in
            try await authorize(clientID: target.clientID, redirectURI: redirectURI.string, state: state)
        }
        for ((label, state), answer) in zip(HostileStates.all, answers) {
            guard let verdict = verdict(answer, redirectURI: redirectURI.string, state: state), answer.redirected else {
                failures.append("\(label): \(answer.description)")
                continue
            }
            let stateProblem = verdict.violations.first {
                if case .stateMismatch = $0 { return true }
                return $0 == .stateMissing
            }
            if let problem = stateProblem ?? (verdict.outcome == nil ? verdict.violations.first : nil) {
                failures.append("\(label): \(problem)")
            }
        }
        return failures.isEmpty
            ? AuditResult(.authorizeState, .pass, "\(HostileStates.all.count) states came back byte for byte")
            : AuditResult(
                .authorizeState,
                .fail,
                "\(failures.count) of \(HostileStates.all.count) states: " + failures.joined(separator: "; "),
                evidence: failures
            )
    }

    /// A fresh code for the token-endpoint checks.
    public func freshCode(redirectURI: AppFlipRedirectURI) async throws -> String {
        try await freshCode(redirectURI: redirectURI, scopes: target.scopes)
    }

    /// A fresh code for `scopes`.
    public func freshCode(redirectURI: AppFlipRedirectURI, scopes: [String]) async throws -> String {
        let state = "appflip-audit-code-" + String(UInt64.random(in: .min ... .max), radix: 36)
        let answer = try await authorize(clientID: target.clientID, redirectURI: redirectURI.string, state: state, scopes: scopes)
        guard case .code(let code)? = verdict(answer, redirectURI: redirectURI.string, state: state)?.outcome else {
            throw AuditUnreachable("the authorization endpoint gave no code: \(answer.description)")
        }
        return code
    }

    func verdict(_ answer: Answer, redirectURI: String, state: String) -> FlipResultVerdict? {
        answer.location.map { FlipResultChecker(redirectURI: redirectURI, state: state).check($0) }
    }

    func authorize(
        clientID: String?,
        redirectURI: String,
        state: String,
        scopes: [String]? = nil,
        extra: [(name: String, value: String)] = []
    ) async throws(AuditUnreachable) -> Answer {
        var fields: [(name: String, value: String)] = [("response_type", "code")]
        if let clientID { fields.append(("client_id", clientID)) }
        fields.append(("redirect_uri", redirectURI))
        let scopes = scopes ?? target.scopes
        if !scopes.isEmpty { fields.append(("scope", scopes.joined(separator: " "))) }
        fields.append(("state", state))
        fields += extra
        var request = HTTPClientRequest(url: target.url + (target.url.contains("?") ? "&" : "?") + FormEncoding.encode(fields))
        target.credential?.apply(to: &request.headers)
        let endpoint = String(target.url.prefix { $0 != "?" })
        do {
            let response = try await httpClient.exchange(request, bounds: bounds, endpoint: "the authorization endpoint \(endpoint)")
            return Answer(status: response.status.code, location: response.headers.first(name: "Location"))
        } catch {
            throw AuditUnreachable("\(error)")
        }
    }
}
