import AppFlipCore
import AppFlipProtocol

/// What one flip link sent through appflipd came back with: the daemon's reply and the URLs delivered to
/// the Google app (whole: the Google app may see the code).
struct PartnerFlip: Sendable {
    /// The link sent.
    var link: String
    /// The app the daemon routed it to, when it reached one.
    var app: String?
    /// The AASA rule that routed it.
    var rule: String?
    /// The daemon's error reply, when there was one (`declined` when the app answered `continue: false`).
    var refusal: ErrorBody?
    /// Every URL the app opened, redacted, in order, as the daemon reports them.
    var opened: [OpenedURL]
    /// The URLs the Google app received, whole.
    var delivered: [String]

    /// The app answered `continue: false`.
    var declined: Bool { refusal?.code == .declined }

    /// The result to judge: the first URL the Google app received, else the first URL opened (redacted).
    var resultURL: String? { delivered.first ?? opened.first?.url }

    /// What the app opened, for a reason line: "nothing" or each URL with what became of it.
    var openedSummary: String {
        guard !opened.isEmpty else { return "nothing" }
        return opened.map { "\($0.url) (\($0.status.rawValue)\($0.universalLinksOnly ? "" : ", not universal-links-only"))" }
            .joined(separator: ", ")
    }

    /// The daemon's answer in a few words.
    var answerSummary: String {
        if let refusal {
            return refusal.code == .declined
                ? "declined" + (refusal.reason.map { ": \($0)" } ?? " (no reason given)") : "\(refusal.code.rawValue): \(refusal.message)"
        }
        return "continued"
    }
}
