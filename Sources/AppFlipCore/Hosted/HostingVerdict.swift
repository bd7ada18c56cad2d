/// The hosting rules judged on the fetch of a platform's own file, in the order the policy meets them: the
/// first that breaks fails, the ones after it are skipped, naming it. One logic for every platform; the
/// policy gives the ids, the order and the words.
public struct HostingVerdict: Sendable {
    /// One check per hosting rule, in `HostingRule`'s order; none for a local file or when nothing could be judged.
    public let checks: [HostedCheck]
    /// Why nothing can be judged: no answer, or a body that could not be read for a reason no rule names.
    public let couldNotRun: String?
    /// The rule that broke, when one did.
    public let failed: HostedRule?
    /// The body the file's own rules read; nil when a rule that keeps the file from being read broke (all of
    /// them but a content type the platform does not require) or nothing could be judged.
    public let body: [UInt8]?

    /// Judges `fetch`, the platform's own file, under `policy`.
    public init(_ fetch: HostedFetch, policy: HostingPolicy) {
        var checks: [HostingRule: HostedCheck] = [:]
        var failed: HostingRule?
        for rule in policy.order {
            let hosted = policy.rules[rule]
            if let failed {
                checks[rule] = .skipped(hosted, because: policy.rules[failed].id)
                continue
            }
            switch Self.judge(rule, fetch, policy) {
            case .failure(let couldNotRun):
                self.init(checks: [], couldNotRun: couldNotRun.reason, failed: nil, body: nil)
                return
            case .success(let check):
                checks[rule] = HostedCheck(hosted, check.held ? .passed : .failed, check.evidence)
                if !check.held { failed = rule }
            }
        }
        // A body read whole past the size rule's limit stays readable where a verifier reads on (Android 12+'s
        // StatementService).
        let readOn = failed == .size && fetch.bodyFailure == nil && policy.readLimit > policy.maximumSize
        let readable = failed == nil || (failed == .contentType && !policy.contentTypeIsRequired) || readOn
        self.init(
            checks: HostingRule.allCases.compactMap { checks[$0] },
            couldNotRun: nil,
            failed: failed.map { policy.rules[$0] },
            body: readable ? fetch.response?.body : nil
        )
    }

    private init(checks: [HostedCheck], couldNotRun: String?, failed: HostedRule?, body: [UInt8]?) {
        self.checks = checks
        self.couldNotRun = couldNotRun
        self.failed = failed
        self.body = body
    }

    /// A local file, read as if served: no hosting rule is judged, and its body is read.
    public static func local(_ fetch: HostedFetch) -> HostingVerdict {
        HostingVerdict(checks: [], couldNotRun: nil, failed: nil, body: fetch.response?.body)
    }

    private struct Judged {
        let held: Bool
        let evidence: String
    }

    private struct CouldNotRun: Error {
        let reason: String
    }

    /// One rule on `fetch`, the rules met before it held.
    private static func judge(_ rule: HostingRule, _ fetch: HostedFetch, _ policy: HostingPolicy) -> Result<Judged, CouldNotRun> {
        let response: HostResponse
        switch fetch.result {
        case .failed(let reason), .malformedHTTP(let reason): return .failure(CouldNotRun(reason: reason))
        case .tlsFailed(let reason): return .success(Judged(held: false, evidence: reason))
        case .response(let answer): response = answer
        }
        let consequences = policy.consequences
        switch rule {
        case .https:
            return .success(Judged(held: true, evidence: "TLS verified for \(fetch.fetchedFrom)"))
        case .noRedirect:
            guard (300..<400).contains(response.status) else { return .success(Judged(held: true, evidence: "\(fetch.statusLine), no redirect")) }
            let location = response.location.map { "to \($0)" } ?? "without a Location"
            return .success(Judged(held: false, evidence: "\(fetch.statusLine) \(location); \(consequences.redirect)"))
        case .status:
            let held = response.status == 200
            return .success(Judged(held: held, evidence: held ? fetch.statusLine : "\(fetch.statusLine); \(consequences.status)"))
        case .contentType:
            let served = response.contentType.map { "Content-Type \($0)" } ?? "no Content-Type"
            return .success(Judged(held: response.isJSON, evidence: response.isJSON ? served : "\(served); \(consequences.contentType)"))
        case .size:
            if let failure = fetch.bodyFailure {
                // Over appflip's bound (declared or sent) breaks the rule; a body cut short otherwise is no answer.
                return failure.overCap == nil
                    ? .failure(CouldNotRun(reason: failure.reason)) : .success(Judged(held: false, evidence: failure.reason))
            }
            let size = response.body.count
            guard size > policy.maximumSize else { return .success(Judged(held: true, evidence: "\(size) bytes")) }
            return .success(Judged(held: false, evidence: "\(size) bytes sent without a Content-Length; \(consequences.sizeSent)"))
        }
    }
}
