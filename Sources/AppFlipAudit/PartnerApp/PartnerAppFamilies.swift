import AppFlipCore
import AppFlipProtocol

/// The families of flip links the partner-app checks send: a valid link reordered or with an unrecognised
/// parameter, the 12 redirect URIs, the state family (with a code and on an error path), every mutation of
/// the client id and of the redirect URI (and each sent twice beside Google's), and the invalid requests.
extension PartnerAppAudit {
    /// `partner.code`: the valid link with its parameters reversed, and with an unrecognised parameter added,
    /// each gets a code (RFC 6749 §3.1: a parameter the server does not know is ignored).
    func equivalentLinks() async throws(AuditUnreachable) {
        for (index, variant) in RequestMutations.equivalent(to: fields(state: "appflip-audit-equivalent", redirectURI: redirectURI.string))
            .enumerated()
        {
            let state = "appflip-audit-equivalent-\(index)"
            let flip = try await flip(variant.tuples.map { $0.name == "state" ? ("state", state) : $0 }, for: "partner.code: \(variant.label)")
            if case .code(let code)? = judge(flip, redirectURI: redirectURI.string, state: state)?.outcome {
                register(code, from: "the partner.code flip with \(variant.label)")
                context.ledger.record(.partnerCode, .held("a valid flip link with \(variant.label) got a code"))
            } else {
                context.ledger.record(
                    .partnerCode,
                    .fail("a valid flip link with \(variant.label) got no code: \(flip.answerSummary), opened \(flip.openedSummary)")
                )
            }
        }
    }

    func redirectURIs() async throws(AuditUnreachable) {
        var failures: [String] = []
        for (index, uri) in AppFlipRedirectURI.all.enumerated() {
            let state = "appflip-audit-uri-\(index)"
            let flip = try await flip(fields(state: state, redirectURI: uri.string), for: "partner.redirect-uris: \(uri)")
            if case .code(let code)? = judge(flip, redirectURI: uri.string, state: state)?.outcome {
                register(code, from: "partner.redirect-uris' flip for \(uri)")
                continue
            }
            failures.append("\(uri): \(flip.answerSummary), opened \(flip.openedSummary)")
        }
        context.ledger.record(
            .partnerRedirectURIs,
            failures.isEmpty
                ? .held("each of the 12 got a code on its own redirect_uri")
                : .fail("\(failures.count) of 12 got no code: " + failures.joined(separator: "; "), evidence: failures)
        )
    }

    /// The state family, with a valid link (`success`) or with `scope` left out (an error path). A state
    /// past a length limit may be refused (no rule bounds a state's length), never cut or changed.
    func states(success: Bool) async throws(AuditUnreachable) {
        let check: CheckSpec = success ? .partnerStateSuccess : .partnerStateError
        let states = StateMutations.all(of: "appflip-audit-state")
        var failures: [String] = []
        var declines: [String] = []
        var refusedLong: [String] = []
        var codes = 0
        for mutation in states {
            let state = mutation.value ?? ""
            let label = mutation.label
            var fields = fields(state: state, redirectURI: redirectURI.string)
            if !success { fields.removeAll { $0.name == "scope" } }
            let flip = try await flip(fields, for: "\(check.id): state \(label)")
            let outcome = judge(flip, redirectURI: redirectURI.string, state: state)?.outcome
            guard let url = flip.resultURL else {
                let line = "\(label): \(flip.answerSummary), opened \(flip.openedSummary)"
                if mutation.family == .length { refusedLong.append(line) } else if success { failures.append(line) } else { declines.append(line) }
                continue
            }
            if let problem = Self.stateProblem(FlipResultChecker(redirectURI: redirectURI.string, state: state).check(url)) {
                failures.append("\(label): \(problem) (sent \(Self.quoted(state)), came back \(Self.stateField(of: url) ?? "absent"))")
                continue
            }
            switch outcome {
            case .error(let error, _)? where success:
                if mutation.family == .length {
                    refusedLong.append("\(label): error=\(error.rawValue)")
                } else {
                    failures.append("\(label): error=\(error.rawValue) instead of a code")
                }
            case .code? where !success: codes += 1
            default: break
            }
        }
        let count = states.count
        let note = refusedLong.isEmpty ? "" : "; \(refusedLong.count) past a length limit refused, which no rule forbids"
        let finding: Finding =
            if !failures.isEmpty {
                .fail("\(failures.count) of \(count) states: " + failures.joined(separator: "; "), evidence: failures + refusedLong)
            } else if !declines.isEmpty {
                .warn(
                    "\(declines.count) of \(count) links without scope were declined, so their state could not come back: \(declines[0])",
                    evidence: declines + refusedLong
                )
            } else if codes > 0 {
                .warn("the app answered \(codes) of \(count) links without scope with a code: the states came back, but not on an error path")
            } else {
                .held(
                    "\(count - refusedLong.count) states came back byte for byte" + (success ? " with a code" : " with an error") + note,
                    evidence: refusedLong
                )
            }
        context.ledger.record(check, finding)
    }

    private static func stateProblem(_ verdict: FlipResultVerdict) -> String? {
        let problem = verdict.violations.first {
            if case .stateMismatch = $0 { return true }
            return $0 == .stateMissing
        }
        return problem?.description ?? (verdict.deviations.contains(.stateMissingWithError) ? "state is missing with the error" : nil)
    }

    /// `partner.wrong-client-id`: every mutation of Google's client id, and none, declined with nothing
    /// opened.
    func wrongClientID() async throws(AuditUnreachable) {
        var evidence: [String] = []
        var failures: [String] = []
        let valid = fields(state: "appflip-audit-client", redirectURI: redirectURI.string)
        let mutations = IdentifierMutations.all(of: target.clientID) + [Mutation(.parameters, "missing", nil)]
        for mutation in mutations {
            let fields = valid.compactMap { field in
                field.name == "client_id" ? mutation.value.map { ("client_id", $0) } : field
            }
            let flip = try await flip(fields, for: "partner.wrong-client-id: \(mutation.label)")
            let sent = "client_id \(mutation)"
            evidence.append("\(sent): \(flip.answerSummary), opened \(flip.openedSummary)")
            if !(flip.declined && flip.opened.isEmpty) {
                failures.append("\(sent): \(flip.declined ? "declined" : "not declined"), opened \(flip.openedSummary)")
            }
        }
        context.ledger.record(
            .partnerWrongClientID,
            failures.isEmpty
                ? .held("\(evidence.count) wrong client_ids declined, nothing opened", evidence: evidence)
                : .fail(
                    "\(failures.count) of \(evidence.count) wrong client_ids not refused: " + failures.joined(separator: "; "),
                    evidence: evidence
                )
        )
    }

    /// `partner.lookalike-redirect`: every mutation of the redirect URI declined with nothing opened; the
    /// URI twice beside a foreign one or a sibling, in either order, opens nothing but the URI itself.
    func lookalikes() async throws(AuditUnreachable) {
        var failures: [String] = []
        var evidence: [String] = []
        for mutation in URIMutations.all(of: redirectURI.string, exact: AppFlipRedirectURI.all.map(\.string)) {
            let flip = try await flip(
                fields(state: "appflip-audit-lookalike", redirectURI: mutation.value ?? ""),
                for: "partner.lookalike-redirect: \(mutation.label)"
            )
            evidence.append("\(mutation): \(flip.answerSummary), opened \(flip.openedSummary)")
            if !(flip.declined && flip.opened.isEmpty) {
                failures.append("\(mutation): \(flip.answerSummary), opened \(flip.openedSummary)")
            }
        }
        let valid = fields(state: "appflip-audit-lookalike", redirectURI: redirectURI.string)
        for foreign in AuthorizationEndpointAudit.pollutingRedirects(of: redirectURI) {
            for variant in RequestMutations.polluted(valid, name: "redirect_uri", wrong: foreign.value ?? "", wrongLabel: "\(foreign)") {
                let flip = try await flip(variant.tuples, for: "partner.lookalike-redirect: \(variant.label)")
                evidence.append("\(variant.label): \(flip.answerSummary), opened \(flip.openedSummary)")
                // Declining is right; so is a result on the App Flip URI itself, which is where Google's link points.
                let elsewhere = flip.opened.filter { String($0.url.prefix { $0 != "?" }) != redirectURI.string }
                if !elsewhere.isEmpty {
                    failures.append("\(variant.label): \(flip.answerSummary), opened \(flip.openedSummary)")
                }
            }
        }
        context.ledger.record(
            .partnerLookalikeRedirect,
            failures.isEmpty
                ? .held("\(evidence.count) lookalikes declined, nothing opened", evidence: evidence)
                : .fail("\(failures.count) of \(evidence.count) lookalikes not refused: " + failures.joined(separator: "; "), evidence: evidence)
        )
    }

    func invalidRequests() async throws(AuditUnreachable) {
        let state = "appflip-audit-invalid"
        let valid = fields(state: state, redirectURI: redirectURI.string)
        let scope = valid.first { $0.name == "scope" }!.value
        func replacing(_ name: String, with values: [String]) -> [(name: String, value: String)] {
            valid.filter { $0.name != name } + values.map { (name, $0) }
        }
        let cases: [(String, [(name: String, value: String)])] = [
            ("state missing", replacing("state", with: [])),
            ("state empty", replacing("state", with: [""])),
            ("state twice", replacing("state", with: [state, state])),
            ("scope missing", replacing("scope", with: [])),
            ("scope empty", replacing("scope", with: [""])),
            ("scope twice", replacing("scope", with: [scope, scope])),
        ]
        var failures: [String] = []
        var declines: [String] = []
        var evidence: [String] = []
        for (label, fields) in cases {
            let flip = try await flip(fields, for: "partner.invalid-request: \(label)")
            let sentState = fields.filter { $0.name == "state" }.count == 1 ? fields.first { $0.name == "state" }!.value : nil
            evidence.append("\(label): \(flip.answerSummary), opened \(flip.openedSummary)")
            switch judge(flip, redirectURI: redirectURI.string, state: sentState ?? "")?.outcome {
            case .error(.invalidRequest, _)?:
                continue
            case .error(let error, _)?:
                failures.append("\(label): error=\(error.rawValue), not invalid_request")
            case .code? where label == "scope missing" || label == "scope empty":
                // RFC 6749 §3.3 lets a server apply a default scope; §3.1 reads an empty one as missing.
                declines.append("\(label): a code (a default scope, which RFC 6749 §3.3 allows)")
            case .code?:
                failures.append("\(label): a code, not invalid_request")
            case nil where flip.declined && flip.opened.isEmpty:
                declines.append("\(label): declined (the seed's sample does this)")
            case nil:
                failures.append("\(label): \(flip.answerSummary), opened \(flip.openedSummary)")
            }
        }
        let finding: Finding =
            if !failures.isEmpty {
                .fail("\(failures.count) of \(cases.count): " + failures.joined(separator: "; "), evidence: evidence)
            } else if !declines.isEmpty {
                .warn("\(declines.count) of \(cases.count) without invalid_request: " + declines.joined(separator: "; "), evidence: evidence)
            } else {
                .held("each of \(cases.count) got invalid_request on the redirect_uri", evidence: evidence)
            }
        context.ledger.record(.partnerInvalidRequest, finding)
    }
}
