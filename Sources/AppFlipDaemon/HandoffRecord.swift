import AppFlipProtocol
public import Logging

/// One hop's record: the fields of its info line, which the journal shows as `APPFLIP_HANDOFF_ID`,
/// `APPFLIP_HOP`, `APPFLIP_URL`, … (docs/operations.md). ``forEachField(_:)`` is the one list of them;
/// ``metadata`` is that list as swift-log metadata.
public struct HandoffRecord: Sendable {
    /// One field's value.
    public enum Value: Sendable {
        case text(String)
        case number(Int)
        /// Text spelled out only when the line is printed, on the log writer's thread.
        case deferred(any CustomStringConvertible & Sendable)
    }

    let handoffID: HandoffIDs.Name
    let hop: Int
    /// Unredacted: redacted when it is printed.
    let url: String
    let app: String?
    let rule: String?
    let outcome: String
    let latencyMicros: Int
    let peer: PeerInfo?
    let client: String?

    /// `handoff handled`, `handoff delivered`, `handoff no_app`, …
    public var message: String { "handoff " + outcome }

    /// Calls `body` with each field's metadata key and value, in the order of their journal field names, so
    /// that the journal's entry has nothing to reorder.
    public func forEachField(_ body: (_ key: String, _ value: Value) -> Void) {
        body("app", .text(app ?? "-"))
        if let client { body("client", .text(client)) }
        body("handoff_id", .deferred(handoffID))
        body("hop", .number(hop))
        body("latency_us", .number(latencyMicros))
        body("outcome", .text(outcome))
        if let peer {
            body("peer_pid", .number(Int(peer.pid)))
            body("peer_uid", .number(Int(peer.uid)))
        }
        body("rule", .text(rule ?? "-"))
        body("url", .deferred(RedactedURL(url: url)))
    }

    /// The fields as swift-log metadata.
    public var metadata: Logger.Metadata {
        var metadata: Logger.Metadata = [:]
        forEachField { key, value in
            switch value {
            case .text(let text): metadata[key] = .string(text)
            case .number(let number): metadata[key] = .stringConvertible(number)
            case .deferred(let value): metadata[key] = .stringConvertible(value)
            }
        }
        return metadata
    }

    /// A hop's URL in the log, redacted when it is printed.
    private struct RedactedURL: CustomStringConvertible, Sendable {
        let url: String
        var description: String { Redaction.redact(url: url) }
    }
}
