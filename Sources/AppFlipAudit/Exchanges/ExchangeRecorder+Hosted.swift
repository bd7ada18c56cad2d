import AppFlipCore
import AppFlipHTTPClient

extension ExchangeRecorder {
    /// A hosted file's body kept whole in its record: a hosted association file is public, served to anyone
    /// who asks, and the audit sends nothing secret to fetch it. A longer one is recorded by size and type.
    static let hostedBodyKept = 64 * 1024

    /// Records each file of `target`'s hosted fetch as an exchange of the run, numbered when it is in: the
    /// association targets fetch before any other target runs, one file after another, so the numbers keep
    /// the order the requests were sent in.
    func hostedObserver(for target: AuditTarget) -> HostedFetchObserver {
        { [self] trace in
            let fetch = trace.fetch
            var record = RecordedExchange(
                id: begin().id,
                endpoint: .hostedFile,
                purpose: "\(target.rawValue): \(fetch.url)",
                request: RecordedExchange.Request(method: "GET", url: LocationText.shown(fetch.fetchedFrom), headers: [], form: []),
                response: nil,
                failure: nil,
                started: offset(trace.started),
                duration: trace.duration
            )
            switch fetch.result {
            case .response(let response):
                record.response = RecordedExchange.Response(
                    status: response.status,
                    httpVersion: trace.version ?? "HTTP/1.1",
                    headers: trace.headers.map { Redaction.header($0.name, $0.value) },
                    body: Self.hostedBody(response),
                    bodySize: response.body.count
                )
                record.failure = fetch.bodyFailure?.reason
            case .tlsFailed(let reason), .malformedHTTP(let reason), .failed(let reason):
                record.failure = reason
            }
            add(Exchange(record: record, answer: nil, googleSends: true))
        }
    }

    private static func hostedBody(_ response: HostResponse) -> String {
        let type = response.contentType ?? "no Content-Type"
        guard !response.body.isEmpty else { return "(empty)" }
        guard response.body.count <= hostedBodyKept, let text = String(validating: response.body, as: UTF8.self) else {
            return "(\(response.body.count) bytes, \(type))"
        }
        return text
    }
}
