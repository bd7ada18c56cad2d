import AppFlipClient
import AppFlipCore
import AppFlipGoogle
import AppFlipProtocol
import NIOConcurrencyHelpers
import NIOCore

/// Flip links through appflipd and what the app opened, judged as the Google app reads a result.
extension PartnerAppAudit {
    /// The four App Flip parameters of a valid link, in Google's order.
    func fields(state: String, redirectURI: String, scopes: [String]? = nil) -> [(name: String, value: String)] {
        [
            ("client_id", target.clientID), ("scope", (scopes ?? target.scopes).joined(separator: " ")), ("state", state),
            ("redirect_uri", redirectURI),
        ]
    }

    /// Judges a flip that should have produced a result, noting shape and error-value problems; returns the
    /// result's verdict (nil when there is no result).
    func judge(_ flip: PartnerFlip, redirectURI: String, state: String) -> FlipResultVerdict? {
        guard let url = flip.resultURL else { return nil }
        let verdict = FlipResultChecker(redirectURI: redirectURI, state: state).check(url)
        observations.note(flip, redirectURI: redirectURI, verdict: verdict)
        return verdict
    }

    /// Sends one flip link for `purpose` (a check's id, then what the link tries), once the flip before it is
    /// done, and collects what came back; the handoff is recorded in the run's sequence.
    func flip(_ fields: [(name: String, value: String)], for purpose: String) async throws(AuditUnreachable) -> PartnerFlip {
        try await flips.run { () async throws(AuditUnreachable) in try await sendFlip(fields, for: purpose) }
    }

    private func sendFlip(_ fields: [(name: String, value: String)], for purpose: String) async throws(AuditUnreachable) -> PartnerFlip {
        let link = target.link.string + (target.link.query == nil ? "?" : "&") + FormEncoding.encode(fields)
        let handoff = HandoffRecording(context.exchanges, .open, purpose: purpose, sent: link)
        do {
            let flip = try await send(link)
            handoff.replied(flip.recordedReply, received: flip.delivered)
            return flip
        } catch {
            handoff.failed(error.description)
            throw error
        }
    }

    private func send(_ link: String) async throws(AuditUnreachable) -> PartnerFlip {
        let request = OpenRequest(
            activity: Activity(activityType: browsingWebActivityType, webpageURL: link),
            options: OpenOptions(universalLinksOnly: true)
        )
        let reply: Reply
        do {
            reply = try await withTimeout(target.timeout) { try await connection.send(.open(request)).get() }
        } catch {
            throw AuditUnreachable("appflipd gave no reply to a flip link within \(target.timeout): \(error)")
        }
        let delivered = google.takeAll()
        switch reply.outcome {
        case .success(.open(let result)):
            return PartnerFlip(link: link, app: result.app, rule: result.rule, refusal: nil, opened: result.opened, delivered: delivered)
        case .success(let other):
            throw AuditUnreachable("appflipd answered an open with \(other.op.rawValue)")
        case .failure(let error):
            return PartnerFlip(link: link, app: error.app, rule: error.rule, refusal: error, opened: error.opened ?? [], delivered: delivered)
        }
    }

    /// The raw `state` field of a result URL, as sent (still encoded).
    static func stateField(of url: String) -> String? {
        guard let query = url.split(separator: "?", maxSplits: 1).dropFirst().first else { return nil }
        return query.split(separator: "&").first { $0.hasPrefix("state=") }.map { String($0.dropFirst(6)) }
    }

    static func quoted(_ text: String) -> String { String(reflecting: text.count > 40 ? String(text.prefix(40)) + "…" : text) }
}

/// What every result of the run showed, for the checks that judge them all: `partner.result-shape` (one URL,
/// universal-links-only, on the exact redirect_uri, only App Flip's parameters) and `partner.error-values`.
final class FlipObservations: Sendable {
    private struct State {
        var results = 0
        var shapeProblems: [String] = []
        var errors = 0
        var errorValueProblems: [String] = []
    }

    private let state = NIOLockedValueBox(State())

    func note(_ flip: PartnerFlip, redirectURI: String, verdict: FlipResultVerdict) {
        let context = "after \(flip.link)"
        var shape: [String] = []
        if flip.opened.count > 1 { shape.append("opened \(flip.opened.count) URLs: \(flip.openedSummary) (\(context))") }
        if let first = flip.opened.first, !first.universalLinksOnly {
            shape.append("opened \(first.url) without universal-links-only (\(context))")
        }
        if let first = flip.opened.first {
            let base = URLDifference.base(of: first.url)
            if base != redirectURI {
                shape.append(
                    "opened \(first.url), not the redirect_uri \(redirectURI): \(URLDifference.describe(base, expected: redirectURI)) (\(context))"
                )
            } else if first.status != .delivered {
                shape.append("the result \(first.url) was \(first.status.rawValue), not delivered to the Google app (\(context))")
            }
        }
        var errorValues: [String] = []
        for violation in verdict.violations {
            switch violation {
            case .stateMismatch, .stateMissing, .notTheRedirectURI: continue
            case .unknownError(let error): errorValues.append("error=\(error) is not an App Flip error value (\(context))")
            default: shape.append("\(violation) (\(context))")
            }
        }
        if verdict.deviations.contains(.errorDescriptionCharacters) {
            errorValues.append("error_description is not encoded as RFC 6749 §4.1.2.1 requires (\(context))")
        }
        let isError: Bool =
            if case .error? = verdict.outcome { true } else { verdict.violations.contains { if case .unknownError = $0 { true } else { false } } }
        state.withLockedValue { state in
            state.results += 1
            state.shapeProblems += shape
            state.errorValueProblems += errorValues
            if isError { state.errors += 1 }
        }
    }

    /// The two checks' findings, and their needs: a result, and an error result.
    func record(into ledger: AuditLedger) {
        let state = state.withLockedValue { $0 }
        if state.results == 0 {
            ledger.set(.appResult, .nothingToJudge("the app opened no result"))
        } else {
            ledger.establish(.appResult)
            ledger.record(
                .partnerResultShape,
                state.shapeProblems.isEmpty
                    ? .held("\(state.results) results, each one URL on the exact redirect_uri, universal-links-only")
                    : .fail(
                        "\(state.shapeProblems.count) problem(s) in \(state.results) results: \(state.shapeProblems[0])",
                        evidence: state.shapeProblems
                    )
            )
        }
        guard state.errors > 0 else {
            ledger.set(.appErrorResult, .nothingToJudge("the app sent no error result"))
            return
        }
        ledger.establish(.appErrorResult)
        ledger.record(
            .partnerErrorValues,
            state.errorValueProblems.isEmpty
                ? .held("\(state.errors) error results, each with an App Flip error value")
                : .fail(state.errorValueProblems[0], evidence: state.errorValueProblems)
        )
    }
}
