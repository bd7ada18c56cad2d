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
        /// The handoff's id, `prefix` then `number` in decimal: spelled out only when the line is printed.
        case handoffID(prefix: String, number: UInt64)
        /// A hop's URL, unredacted: redacted (`Redaction.redact(url:)`) only when the line is printed, on the
        /// log writer's thread.
        case url(String)
    }

    /// Where every record is logged from, for the entry's `SWIFT_LOG_SOURCE`, `CODE_FILE`, `CODE_FUNC` and
    /// `CODE_LINE`: ``HandoffRecorder``, the one place that logs records.
    public struct Site: Sendable {
        public let source = "AppFlipDaemon"
        public let file: String
        public let function: String
        public let line: UInt
    }

    let handoffID: HandoffIDs.Name
    let hop: Int
    /// Unredacted: redacted when it is printed.
    let url: String
    let app: String?
    let rule: String?
    /// `handled`, `delivered`, `no_app`, …: the end of the message.
    public let outcome: String
    let latencyMicros: Int
    let peer: PeerInfo?
    let client: String?

    /// `handoff handled`, `handoff delivered`, `handoff no_app`, …
    public var message: String { Self.messagePrefix + outcome }

    /// What every record's message starts with, before its ``outcome``.
    public static let messagePrefix = "handoff "

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
        body(.handoffID, .handoffID(prefix: handoffID.prefix, number: handoffID.number))
        body(.hop, .number(hop))
        body(.latency, .number(latencyMicros))
        body(.outcome, .text(outcome))
        if let peer {
            body(.peerPID, .number(Int(peer.pid)))
            body(.peerUID, .number(Int(peer.uid)))
        }
        body(.rule, .text(rule ?? "-"))
        body(.url, .url(url))
    }

    /// The fields as swift-log metadata.
    public var metadata: Logger.Metadata {
        var metadata: Logger.Metadata = [:]
        forEachField { field, value in
            switch value {
            case .text(let text): metadata[field.key] = .string(text)
            case .number(let number): metadata[field.key] = .stringConvertible(number)
            case .handoffID(let prefix, let number): metadata[field.key] = .stringConvertible(HandoffIDs.Name(prefix: prefix, number: number))
            case .url(let url): metadata[field.key] = .stringConvertible(RedactedURL(url: url))
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
