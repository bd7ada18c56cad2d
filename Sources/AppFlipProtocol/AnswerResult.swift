/// The reply to `answer`: the daemon took it; the originator's reply follows the opened URLs' delivery.
public struct AnswerResult: Sendable, Hashable, Codable {
    public var handoff: UInt64

    public init(handoff: UInt64) {
        self.handoff = handoff
    }
}
