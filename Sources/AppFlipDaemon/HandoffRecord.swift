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

    /// A field of the record. Its cases are a fixed set, so that a log handler can resolve each key once
    /// (`JournalHandoffLog`) rather than for every record.
    public enum Field: Int, CaseIterable, Sendable {
        case app, client, handoffID, hop, latency, outcome, peerPID, peerUID, rule, url

        /// The metadata key.
        public var key: String {
            switch self {
            case .app: "app"
            case .client: "client"
            case .handoffID: "handoff_id"
            case .hop: "hop"
            case .latency: "latency_us"
            case .outcome: "outcome"
            case .peerPID: "peer_pid"
            case .peerUID: "peer_uid"
            case .rule: "rule"
            case .url: "url"
            }
        }
    }

    /// Calls `body` with each field and its value, in the order of their journal field names, so that the
    /// journal's entry has nothing to reorder.
    public func forEachField(_ body: (_ field: Field, _ value: Value) -> Void) {
        body(.app, .text(app ?? "-"))
        if let client { body(.client, .text(client)) }
        body(.handoffID, .deferred(handoffID))
        body(.hop, .number(hop))
        body(.latency, .number(latencyMicros))
        body(.outcome, .text(outcome))
        if let peer {
            body(.peerPID, .number(Int(peer.pid)))
            body(.peerUID, .number(Int(peer.uid)))
        }
        body(.rule, .text(rule ?? "-"))
        body(.url, .deferred(RedactedURL(url: url)))
    }

    /// The fields as swift-log metadata.
    public var metadata: Logger.Metadata {
        var metadata: Logger.Metadata = [:]
        forEachField { field, value in
            switch value {
            case .text(let text): metadata[field.key] = .string(text)
            case .number(let number): metadata[field.key] = .stringConvertible(number)
            case .deferred(let value): metadata[field.key] = .stringConvertible(value)
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
