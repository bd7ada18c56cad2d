import AppFlipCore

/// The run's HTTP exchanges and handoffs through appflipd in one sequence, by number, as `--json`'s
/// `exchanges` shows them: each with the checks whose results refer to it (`findings`), the way back from
/// a result's `exchanges`.
struct ExchangeTimeline: Encodable {
    enum Entry {
        case http(RecordedExchange)
        case handoff(RecordedHandoff)

        var id: Int {
            switch self {
            case .http(let exchange): exchange.id
            case .handoff(let handoff): handoff.id
            }
        }
    }

    let entries: [Entry]
    /// The check ids referring to each exchange, in catalogue order.
    let findings: [Int: [String]]

    init(exchanges: [RecordedExchange], handoffs: [RecordedHandoff], results: [AuditResult]) {
        entries = (exchanges.map(Entry.http) + handoffs.map(Entry.handoff)).sorted { $0.id < $1.id }
        findings = Self.findings(of: results)
    }

    /// The check ids referring to each exchange, in catalogue order.
    static func findings(of results: [AuditResult]) -> [Int: [String]] {
        var findings: [Int: [String]] = [:]
        for result in results {
            for id in result.exchanges { findings[id, default: []].append(result.check.id) }
        }
        return findings
    }

    /// Milliseconds, to the microsecond.
    static func milliseconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return ((Double(seconds) * 1_000 + Double(attoseconds) / 1e15) * 1_000).rounded() / 1_000
    }

    private struct Field: Encodable {
        var name: String
        var value: String
    }

    private enum Keys: String, CodingKey {
        case id, kind, endpoint, operation, purpose, startedMs, durationMs, request, response, sent, reply, received, failure, findings
        case method, url, headers, form, status, httpVersion, body, bodySize
    }

    func encode(to encoder: any Encoder) throws {
        var list = encoder.unkeyedContainer()
        for entry in entries {
            var container = list.nestedContainer(keyedBy: Keys.self)
            try container.encode(entry.id, forKey: .id)
            switch entry {
            case .http(let exchange):
                try container.encode("http", forKey: .kind)
                try container.encode(exchange.endpoint.rawValue, forKey: .endpoint)
                try container.encode(exchange.purpose, forKey: .purpose)
                try container.encode(Self.milliseconds(exchange.started), forKey: .startedMs)
                try container.encode(Self.milliseconds(exchange.duration), forKey: .durationMs)
                var request = container.nestedContainer(keyedBy: Keys.self, forKey: .request)
                try request.encode(exchange.request.method, forKey: .method)
                try request.encode(exchange.request.url, forKey: .url)
                try request.encode(exchange.request.headers.map { Field(name: $0.name, value: $0.value) }, forKey: .headers)
                try request.encode(exchange.request.form.map { Field(name: $0.name, value: $0.value) }, forKey: .form)
                if let answer = exchange.response {
                    var response = container.nestedContainer(keyedBy: Keys.self, forKey: .response)
                    try response.encode(answer.status, forKey: .status)
                    try response.encode(answer.httpVersion, forKey: .httpVersion)
                    try response.encode(answer.headers.map { Field(name: $0.name, value: $0.value) }, forKey: .headers)
                    try response.encode(answer.body, forKey: .body)
                    try response.encode(answer.bodySize, forKey: .bodySize)
                }
                try container.encodeIfPresent(exchange.failure, forKey: .failure)
            case .handoff(let handoff):
                try container.encode("handoff", forKey: .kind)
                try container.encode(handoff.operation.rawValue, forKey: .operation)
                try container.encode(handoff.purpose, forKey: .purpose)
                try container.encode(Self.milliseconds(handoff.started), forKey: .startedMs)
                try container.encode(Self.milliseconds(handoff.duration), forKey: .durationMs)
                try container.encode(handoff.sent, forKey: .sent)
                try container.encodeIfPresent(handoff.reply, forKey: .reply)
                try container.encode(handoff.received, forKey: .received)
                try container.encodeIfPresent(handoff.failure, forKey: .failure)
            }
            try container.encode(findings[entry.id] ?? [], forKey: .findings)
        }
    }
}
