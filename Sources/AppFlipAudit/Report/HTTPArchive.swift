import AppFlipCore
import AppFlipProtocol
public import FoundationEssentials
import NIOHTTP1

/// `appflip audit --har FILE`: every HTTP exchange of the run as an HTTP Archive, HAR 1.2
/// (http://www.softwareishard.com/blog/har-12-spec/), in the order sent, redacted as the run recorded it (a
/// code, token, secret or cookie only as its length and fingerprint). HAR's custom fields (a leading
/// underscore) tie it to the report both ways: each entry's `_appflipExchange` is the `#N` of the evidence and
/// `_appflipFindings` the checks that refer to it; the log's `_appflipFindings` gives each result's entries as
/// `_entries`. Handoffs through appflipd are no HTTP, so they are in `--json`'s `exchanges`, not here.
public enum HTTPArchive {
    /// The archive of `report`, whose run began at `startedAt` (wall clock), as UTF-8 JSON.
    public static func document(_ report: AuditReport, startedAt: Date) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return Array(try encoder.encode(Archive(log: log(report, startedAt: startedAt))))
    }

    static func log(_ report: AuditReport, startedAt: Date) -> Log {
        let findings = ExchangeTimeline.findings(of: report.results)
        let entries = report.exchanges.map { entry($0, startedAt: startedAt, findings: findings[$0.id] ?? []) }
        let inArchive = Set(report.exchanges.map(\.id))
        let results = report.results.compactMap { result -> Finding? in
            let ids = result.exchanges.filter(inArchive.contains)
            guard !ids.isEmpty || (result.outcome != .pass && result.outcome != .skipped) else { return nil }
            return Finding(id: result.check.id, outcome: result.outcome.rawValue, reason: result.reason, _entries: ids)
        }
        return Log(
            version: "1.2",
            creator: Creator(name: "appflip audit", version: ReleaseVersion.current),
            entries: entries,
            comment: """
                Every HTTP exchange of one appflip audit run, in the order sent; each code, token, secret, cookie and \
                session credential appears only as its length and the first 8 hex digits of its SHA-256. Each \
                entry's _appflipExchange is the #N the audit's evidence names; the handoffs through appflipd are \
                in appflip audit --json's exchanges.
                """,
            _appflipFindings: results
        )
    }

    static func entry(_ exchange: RecordedExchange, startedAt: Date, findings: [String]) -> Entry {
        let milliseconds = ExchangeTimeline.milliseconds(exchange.duration)
        let started = startedAt.addingTimeInterval(ExchangeTimeline.milliseconds(exchange.started) / 1_000)
        let url = archiveURL(exchange.request.url)
        var postData: PostData?
        if !exchange.request.form.isEmpty {
            postData = PostData(
                mimeType: exchange.request.headers.first { $0.name.lowercased() == "content-type" }?.value
                    ?? "application/x-www-form-urlencoded",
                text: FormEncoding.encode(exchange.request.form.map { ($0.name, $0.value) })
            )
        }
        return Entry(
            startedDateTime: started.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true)),
            time: milliseconds,
            request: Request(
                method: exchange.request.method,
                url: url,
                httpVersion: exchange.response?.httpVersion ?? "HTTP/1.1",
                cookies: [],
                headers: exchange.request.headers.map { Pair(name: $0.name, value: $0.value) },
                queryString: queryString(of: url),
                postData: postData,
                headersSize: -1,
                bodySize: postData == nil ? 0 : -1
            ),
            response: response(exchange),
            cache: Cache(),
            timings: Timings(
                send: 0,
                wait: milliseconds,
                receive: 0,
                comment: "appflip times each exchange whole, from sending to the last byte of the answer: wait holds all of it"
            ),
            comment: "#\(exchange.id) \(exchange.purpose)",
            _appflipExchange: exchange.id,
            _appflipEndpoint: exchange.endpoint.rawValue,
            _appflipPurpose: exchange.purpose,
            _appflipFindings: findings,
            _appflipFailure: exchange.failure
        )
    }

    private static func response(_ exchange: RecordedExchange) -> Response {
        guard let answer = exchange.response else {
            return Response(
                status: 0,
                statusText: "",
                httpVersion: "",
                cookies: [],
                headers: [],
                content: Content(size: 0, mimeType: "x-unknown", text: nil, comment: nil),
                redirectURL: "",
                headersSize: -1,
                bodySize: -1,
                comment: "no answer: \(exchange.failure ?? "none came")"
            )
        }
        let contentType = answer.headers.first { $0.name.lowercased() == "content-type" }?.value
        let kept = !isPlaceholder(answer.body)
        return Response(
            status: answer.status,
            statusText: HTTPResponseStatus(statusCode: answer.status).reasonPhrase,
            httpVersion: answer.httpVersion,
            cookies: [],
            headers: answer.headers.map { Pair(name: $0.name, value: $0.value) },
            content: Content(
                size: answer.bodySize,
                mimeType: contentType ?? "x-unknown",
                text: kept ? answer.body : (answer.bodySize == 0 ? "" : nil),
                comment: kept || answer.bodySize == 0 ? nil : "not recorded: only a JSON object's members are, each secret as its fingerprint"
            ),
            redirectURL: answer.headers.first { $0.name.lowercased() == "location" }?.value ?? "",
            headersSize: -1,
            bodySize: answer.bodySize,
            comment: exchange.failure
        )
    }

    /// Whether a recorded body is the recorder's `(N bytes, TYPE)` or `(empty)` instead of the body.
    static func isPlaceholder(_ body: String) -> Bool {
        guard body.hasPrefix("("), body.hasSuffix(")") else { return false }
        return body == "(empty)" || body.dropFirst().prefix { $0.isASCII && $0.isNumber }.count > 0 && body.contains(" bytes, ")
    }

    /// A recorded URL as HAR wants it: no fragment (none is sent), and every byte a URL cannot hold, such as the
    /// spaces of a redacted value `(43 bytes, sha256:2b199a99)`, percent-encoded.
    static func archiveURL(_ recorded: String) -> String {
        let sent = recorded.prefix { $0 != "#" }
        var url = ""
        for byte in sent.utf8 {
            if byte > 0x20 && byte < 0x7F && !Array("\"<>\\^`{|}".utf8).contains(byte) {
                url.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                url += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return url
    }

    /// The query's parameters, each decoded as a form field (kept as sent when it cannot be).
    static func queryString(of url: String) -> [Pair] {
        guard let mark = url.firstIndex(of: "?") else { return [] }
        return url[url.index(after: mark)...].split(separator: "&", omittingEmptySubsequences: true).map { pair in
            let halves = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let value = halves.count == 2 ? halves[1] : ""
            return Pair(name: PercentEncoding.formDecode(halves[0]) ?? String(halves[0]), value: PercentEncoding.formDecode(value) ?? String(value))
        }
    }

    // HAR 1.2's objects, each with the fields the spec requires and those this archive fills.

    struct Archive: Encodable {
        var log: Log
    }

    struct Log: Encodable {
        var version: String
        var creator: Creator
        var entries: [Entry]
        var comment: String
        var _appflipFindings: [Finding]
    }

    struct Creator: Encodable {
        var name: String
        var version: String
    }

    /// A result and the entries it refers to.
    struct Finding: Encodable {
        var id: String
        var outcome: String
        var reason: String
        var _entries: [Int]
    }

    struct Entry: Encodable {
        var startedDateTime: String
        var time: Double
        var request: Request
        var response: Response
        var cache: Cache
        var timings: Timings
        var comment: String
        var _appflipExchange: Int
        var _appflipEndpoint: String
        var _appflipPurpose: String
        var _appflipFindings: [String]
        var _appflipFailure: String?
    }

    struct Pair: Encodable, Equatable {
        var name: String
        var value: String
    }

    struct Request: Encodable {
        var method: String
        var url: String
        var httpVersion: String
        var cookies: [Pair]
        var headers: [Pair]
        var queryString: [Pair]
        var postData: PostData?
        var headersSize: Int
        var bodySize: Int
    }

    struct PostData: Encodable {
        var mimeType: String
        var text: String
    }

    struct Response: Encodable {
        var status: Int
        var statusText: String
        var httpVersion: String
        var cookies: [Pair]
        var headers: [Pair]
        var content: Content
        var redirectURL: String
        var headersSize: Int
        var bodySize: Int
        var comment: String?
    }

    struct Content: Encodable {
        var size: Int
        var mimeType: String
        var text: String?
        var comment: String?
    }

    struct Cache: Encodable {}

    struct Timings: Encodable {
        var send: Double
        var wait: Double
        var receive: Double
        var comment: String
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
