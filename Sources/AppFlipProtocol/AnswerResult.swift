/// The reply to `answer`: the daemon took it; the originator's reply follows the opened URLs' delivery.
public struct AnswerResult: Sendable, Hashable, Codable {
    /// The `handoff` the answer was for.
    public var handoff: UInt64

    /// Creates the reply.
    public init(handoff: UInt64) {
        self.handoff = handoff
    }
}
