import AppFlipCore

/// The authorization endpoint's generated families, each a bounded number of requests at a time: a valid
/// request reordered or with an unrecognised parameter (a code all the same), every mutation of the
/// redirect URI and of the client id (never redirected to, never a code), and the state family (back byte
/// for byte).
extension AuthorizationEndpointAudit {
    /// `authorize.code`: the valid request with its parameters reversed, and with an unrecognised parameter
    /// added, each gets a code (RFC 6749 §3.1: the server MUST ignore a parameter it does not know).
    func equivalentRequests() async throws(AuditUnreachable) {
        let variants = RequestMutations.equivalent(
            to: fields(clientID: target.clientID, redirectURI: redirectURI.string, state: "appflip-audit-equivalent")
        )
        let answers = try await BoundedProbes.run(Array(variants.enumerated()), limit: concurrency) { index, variant throws(AuditUnreachable) in
            let state = "appflip-audit-equivalent-\(index)"
            let fields = variant.tuples.map { $0.name == "state" ? ("state", state) : $0 }
            return (state, try await authorize(fields: fields, for: "authorize.code: \(variant.label)"))
        }
        for (variant, (state, answer)) in zip(variants, answers) {
            if let code = code(answer, redirectURI: redirectURI.string, state: state) {
                register(code, from: "authorize.code's request with \(variant.label)")
                context.ledger.record(.authorizeCode, .held("a valid request with \(variant.label) got a code"))
            } else {
                context.ledger.record(.authorizeCode, .fail("a valid request with \(variant.label) got no code: \(answer)"))
            }
        }
    }

    /// `authorize.lookalike-redirect`: every mutation of the redirect URI, and the URI twice beside a foreign
    /// one or a sibling, in either order. Nothing may be redirected to a lookalike: neither the lookalike
    /// itself, nor, off the server's own origin, anything but one of the 12 that carries the response.
    func lookalikes() async throws(AuditUnreachable) {
        let mutations = URIMutations.all(of: redirectURI.string, exact: AppFlipRedirectURI.all.map(\.string))
        let singles = mutations.enumerated().map { index, mutation in
            (
                label: "\(mutation)", lookalike: mutation.value ?? "",
                fields: fields(clientID: target.clientID, redirectURI: mutation.value ?? "", state: "appflip-audit-lookalike-\(index)")
            )
        }
        let valid = fields(clientID: target.clientID, redirectURI: redirectURI.string, state: "appflip-audit-lookalike-twice")
        let polluted = Self.pollutingRedirects(of: redirectURI).enumerated().flatMap { index, foreign in
            RequestMutations.polluted(valid, name: "redirect_uri", wrong: foreign.value ?? "", wrongLabel: "\(foreign)").map { variant in
                (
                    label: variant.label, lookalike: foreign.value ?? "",
                    fields: variant.tuples.map { $0.name == "state" ? ("state", "appflip-audit-lookalike-twice-\(index)") : $0 }
                )
            }
        }
        let probes = singles + polluted
        let answers = try await BoundedProbes.run(probes, limit: concurrency) { probe throws(AuditUnreachable) in
            try await authorize(fields: probe.fields, for: "authorize.lookalike-redirect: \(probe.label)")
        }
        var evidence: [String] = []
        var failures: [String] = []
        for (probe, answer) in zip(probes, answers) {
            evidence.append("\(probe.label): \(answer)")
            let state = probe.fields.first { $0.name == "state" }?.value ?? ""
            // Refusing is right; so is a redirect to a registered URI itself. The lookalike gets nothing.
            if let location = answer.location, Self.reachesLookalike(location, probe.lookalike, state: state, authorizeURL: target.url) {
                failures.append("\(probe.label): \(answer)")
            }
        }
        context.ledger.record(
            .authorizeLookalikeRedirect,
            failures.isEmpty
                ? .held("\(evidence.count) lookalikes, none redirected to", evidence: evidence)
                : .fail("\(failures.count) of \(evidence.count) lookalikes redirected to: " + failures.joined(separator: "; "), evidence: evidence)
        )
    }

    /// The foreign URIs sent beside the exact one (HTTP parameter pollution): a foreign host, and a sibling
    /// under the same parent domain.
    static func pollutingRedirects(of redirectURI: AppFlipRedirectURI) -> [Mutation] {
        URIMutations.all(of: redirectURI.string, families: [.sibling]).filter {
            $0.label.hasSuffix("a foreign domain") || $0.label.hasPrefix("the host replaced by another host under")
        }
    }

    /// Whether a redirect to `location` gives something to `lookalike`: it reaches the lookalike as written,
    /// or, off the authorization server's own origin and to none of the 12, it carries the response (a code,
    /// or the request's state).
    static func reachesLookalike(_ location: String, _ lookalike: String, state: String, authorizeURL: String) -> Bool {
        if lookalike.hasPrefix("https://") || lookalike.hasPrefix("http://"), reaches(location, lookalike) { return true }
        guard let absolute = LocationResolver.resolve(location, against: authorizeURL), absolute.contains("://"),
            !LocationResolver.sameOrigin(absolute, authorizeURL),
            !AppFlipRedirectURI.all.contains(where: { $0.string == URLDifference.base(of: absolute) })
        else { return false }
        return LocationJudge.parameterInQueryOrFragment("code", in: absolute) != nil
            || LocationJudge.parameterInQueryOrFragment("state", in: absolute) == state
    }

    /// `authorize.unknown-client`: every mutation of Google's client id, and none, never redirected to the
    /// redirect_uri (RFC 6749 §4.1.2.1: the server's own error or sign-in page is its choice).
    func unknownClient() async throws(AuditUnreachable) {
        let mutations = IdentifierMutations.all(of: target.clientID) + [Mutation(.parameters, "missing", nil)]
        let probes = mutations.enumerated().map { index, mutation in
            (
                label: "client_id \(mutation)",
                fields: fields(clientID: mutation.value, redirectURI: redirectURI.string, state: "appflip-audit-client-\(index)")
            )
        }
        let answers = try await BoundedProbes.run(probes, limit: concurrency) { probe throws(AuditUnreachable) in
            try await authorize(fields: probe.fields, for: "authorize.unknown-client: \(probe.label)")
        }
        var evidence: [String] = []
        var failures: [String] = []
        for (probe, answer) in zip(probes, answers) {
            evidence.append("\(probe.label): \(answer)")
            if let location = answer.location, Self.reaches(location, redirectURI.string) { failures.append("\(probe.label): \(answer)") }
        }
        context.ledger.record(
            .authorizeUnknownClient,
            failures.isEmpty
                ? .held("\(evidence.count) unknown client_ids, none redirected to the redirect_uri with a code or an error", evidence: evidence)
                : .fail(
                    "\(failures.count) of \(evidence.count) unknown client_ids redirected to the redirect_uri: " + failures.joined(separator: "; "),
                    evidence: evidence
                )
        )
    }

    /// `authorize.state`: every state of the family comes back byte for byte; one past a length limit may be
    /// refused, never cut or changed.
    func states() async throws(AuditUnreachable) {
        let states = StateMutations.all(of: "appflip-audit-state")
        let answers = try await BoundedProbes.run(states, limit: concurrency) { mutation throws(AuditUnreachable) in
            try await authorize(
                clientID: target.clientID,
                redirectURI: redirectURI.string,
                state: mutation.value ?? "",
                for: "authorize.state: \(mutation.label)"
            )
        }
        var failures: [String] = []
        var refusedLong: [String] = []
        for (mutation, answer) in zip(states, answers) {
            let state = mutation.value ?? ""
            let verdict = answer.redirected ? verdict(answer, redirectURI: redirectURI.string, state: state) : nil
            let stateProblem = verdict?.violations.first {
                if case .stateMismatch = $0 { return true }
                return $0 == .stateMissing
            }
            if let stateProblem {
                failures.append("\(mutation.label): \(stateProblem)")
            } else if verdict?.outcome.map({ if case .code = $0 { true } else { false } }) != true {
                // No rule bounds a state's length: a refusal of a long one is no fault, a changed one is.
                if mutation.family == .length {
                    refusedLong.append("\(mutation.label): \(answer)")
                } else {
                    failures.append("\(mutation.label): \(verdict.flatMap { $0.violations.first.map(String.init(describing:)) } ?? "\(answer)")")
                }
            }
        }
        let note = refusedLong.isEmpty ? "" : " (refused, which no rule forbids: \(refusedLong.joined(separator: "; ")))"
        context.ledger.record(
            .authorizeState,
            failures.isEmpty
                ? .held("\(states.count - refusedLong.count) of \(states.count) states came back byte for byte\(note)")
                : .fail("\(failures.count) of \(states.count) states: " + failures.joined(separator: "; "), evidence: failures + refusedLong)
        )
    }
}
