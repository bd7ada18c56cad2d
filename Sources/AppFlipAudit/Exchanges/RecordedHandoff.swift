import AppFlipCore

/// One handoff of an audit through appflipd, the partner app's side of the run: an `open` of a flip link or
/// a `start` of the Android App Flip intent, and appflipd's reply, redacted as every output is (a code only
/// as its length and fingerprint). Numbered in the same sequence as the HTTP exchanges (``RecordedExchange``),
/// so that one `#N` names either and the two read in the order they were sent.
public struct RecordedHandoff: Sendable, Hashable {
    /// The protocol operation sent: `open` or `start`.
    public enum Operation: String, Sendable, Hashable {
        case open, start
    }

    /// The handoff's number in the run, in the sequence the HTTP exchanges share.
    public var id: Int
    public var operation: Operation
    /// What it was for, e.g. `partner.lookalike-redirect: redirect_uri with a trailing slash`.
    public var purpose: String
    /// What was sent: the flip link, or the intent with its extras and the identity it was started as.
    public var sent: String
    /// appflipd's reply in a few words: routed where, what the app answered and opened; nil when none came.
    public var reply: String?
    /// What the Google app received from the partner app: each result URL, its code as length and fingerprint.
    public var received: [String]
    /// Why no reply came.
    public var failure: String?
    /// When it was sent, from the start of the run.
    public var started: Duration
    /// How long appflipd took to reply.
    public var duration: Duration
}

/// A handoff under way: numbered when it is sent, recorded when its reply (or its failure) is in.
struct HandoffRecording: Sendable {
    let recorder: ExchangeRecorder
    let operation: RecordedHandoff.Operation
    let purpose: String
    let sent: String
    let id: Int
    let at: ContinuousClock.Instant

    init(_ recorder: ExchangeRecorder, _ operation: RecordedHandoff.Operation, purpose: String, sent: String) {
        self.recorder = recorder
        self.operation = operation
        self.purpose = purpose
        self.sent = sent
        (id, at) = recorder.begin()
    }

    /// Records the reply, and what the Google app received with it (whole: redacted here).
    func replied(_ reply: String, received: [String] = []) {
        record(reply: reply, received: received.map(LocationText.shown), failure: nil)
    }

    /// Records that no reply came, and why.
    func failed(_ failure: String) {
        record(reply: nil, received: [], failure: failure)
    }

    private func record(reply: String?, received: [String], failure: String?) {
        recorder.add(
            RecordedHandoff(
                id: id,
                operation: operation,
                purpose: purpose,
                sent: sent,
                reply: reply,
                received: received,
                failure: failure,
                started: recorder.offset(at),
                duration: recorder.elapsed(since: at)
            )
        )
    }
}

extension PartnerFlip {
    /// appflipd's reply to the flip's `open`, as a handoff record shows it.
    var recordedReply: String {
        let routed = app.map { "routed to \($0)" + (rule.map { " by \($0)" } ?? "") } ?? "routed to no app"
        return "\(routed); \(answerSummary); opened \(openedSummary)"
    }
}
