/// AOSP's verifier, StatementService (on devices without Google Play services), as its code decides
/// (aosp-mirror/platform_frameworks_base `packages/StatementService/src/com/android/statementservice/`):
///
/// - `network/retriever/UrlFetcher.kt` (Android 12+): HTTPS only, redirects not followed, a body is read
///   only for 200 and only when `getContentLength()` is at most 1 MiB, and then read whole whatever its size
///   (`readText()`; a body sent without a `Content-Length`, or with one above `Integer.MAX_VALUE`, which
///   `getContentLength()` reports as -1, has no limit); the content type is not checked.
/// - `retriever/URLFetcher.java` (Android 6–11): the same `Content-Length` test, and a body read only until
///   it passes 1 MiB, which throws (`inputStreamToString`) and fails the verification.
/// - `network/retriever/StatementRetriever.kt`: includes one level deep (`MAX_INCLUDE_LEVEL = 1`); a failed
///   fetch gives no statements.
/// - `domain/DomainVerifier.kt` `verifyHost`: 301/302 → `FAILURE_REDIRECT` (1029); a statement with
///   `handle_all_urls` naming the app → `SUCCESS`; otherwise `FAILURE_REJECTED_BY_SERVER` (1026), which is
///   also what a 404, a 307 or an unreachable host give; an exception (a file or statement it cannot parse,
///   an `http:` include cast to `HttpsURLConnection`) → `FAILURE_UNKNOWN` (1028).
/// - `utils/StatementUtils.kt` `createWebAssetString`: a `*.example.com` host is verified at `example.com`.
///
/// A body appflip cut at its own bound, which Android 12+ would read on, gives ``AppLinkState/couldNotJudge``.
public enum StatementServiceVerifier {
    /// `HTTP_CONTENT_SIZE_LIMIT_IN_BYTES`.
    public static let sizeLimit = 1024 * 1024

    /// The URL StatementService fetches for a manifest host.
    public static func statementListURL(forManifestHost host: String) -> String {
        let stripped = host.hasPrefix("*.") ? String(host.dropFirst(2)) : host
        return "https://\(stripped.lowercasedASCII)/.well-known/assetlinks.json"
    }

    /// Schemes `java.net.URL` knows whose connection is not an `HttpsURLConnection`: the cast throws.
    private static let castFailingSchemes: Set<String> = ["http", "ftp", "file", "jar", "mailto"]

    /// The host's predicted state for the app `packageName` signed by `fingerprints` (the device's
    /// upper-case form, current and past certificates); `legacy` for Android 6–11's fetcher.
    public static func verdict(
        forManifestHost host: String,
        package packageName: String,
        signedBy fingerprints: [String],
        legacy: Bool = false,
        responses: [String: FetchResult]
    ) -> HostVerdict {
        let url = statementListURL(forManifestHost: host)
        let top: HostResponse
        switch responses[url] {
        case .response(let response)?: top = response
        case .failed(let reason)?, .tlsFailed(let reason)?, .malformedHTTP(let reason)?:
            return HostVerdict(state: .rejectedByServer, reason: "\(url) could not be fetched (\(reason)); StatementService records no statements")
        case nil:
            return HostVerdict(state: .rejectedByServer, reason: "\(url) could not be fetched")
        }
        if top.status == 301 || top.status == 302 {
            return HostVerdict(
                state: .redirect,
                reason: "\(url) answers \(top.status)\(top.location.map { " to \($0)" } ?? ""); StatementService does not follow redirects"
            )
        }
        guard top.status == 200 else {
            return HostVerdict(state: .rejectedByServer, reason: "\(url) answers \(top.status), not 200")
        }
        var statements: [AssetStatement]
        switch body(of: top, url: url, legacy: legacy) {
        case .ignored(let why): return HostVerdict(state: .rejectedByServer, reason: why)
        case .refused(let why): return HostVerdict(state: .rejectedByServer, reason: why)
        case .unread(let why): return HostVerdict(state: .couldNotJudge, reason: why)
        case .read(let body):
            switch read(body, url: url) {
            case .failure(let refused): return HostVerdict(state: .failureUnknown, reason: refused.reason)
            case .success(let (found, includes)):
                statements = found
                for include in includes {
                    switch fetchInclude(include, responses: responses, legacy: legacy) {
                    case .failure(let refused): return HostVerdict(state: refused.state, reason: refused.reason)
                    case .success(let more): statements += more
                    }
                }
            }
        }
        if let statement = statements.first(where: { $0.delegatesLinks(toPackage: packageName, signedBy: fingerprints) }) {
            return HostVerdict(
                state: .verified,
                reason: "statement \(statement.pointer) delegates handle_all_urls to \(packageName)",
                dynamicRules: statement.dynamicRules
            )
        }
        return HostVerdict(
            state: .rejectedByServer,
            reason: "no statement delegates handle_all_urls to \(packageName) with one of its certificates (compared exactly, upper case)"
        )
    }

    private struct Refused: Error {
        var state: AppLinkState = .failureUnknown
        let reason: String
    }

    /// What the fetcher makes of a 200 answer's body.
    private enum Body {
        /// Read whole.
        case read([UInt8])
        /// Not read: `getContentLength()` is over 1 MiB, so no statements come from it.
        case ignored(String)
        /// Read until it passed 1 MiB, which throws (Android 6–11).
        case refused(String)
        /// Read on past appflip's own bound: its verdict cannot be judged.
        case unread(String)
    }

    private static func body(of response: HostResponse, url: String, legacy: Bool) -> Body {
        let declared = response.javaContentLength
        if declared > sizeLimit {
            return .ignored("\(url) declares \(declared) bytes (Content-Length), over StatementService's 1 MiB: it reads none of it")
        }
        let fetcher = legacy ? "Android 6–11's StatementService" : "StatementService"
        if legacy, response.exceeds(sizeLimit) {
            return .refused("\(url) sends more than 1 MiB: \(fetcher) stops reading past 1 MiB and fails the verification (URLFetcher.java)")
        }
        if let cutAt = response.cutAt {
            let length = response.contentLength.map { "declares \($0) bytes, more than Java's int, which getContentLength() reads as -1" }
            return .unread(
                "\(url) \(length ?? "sends no Content-Length"), so \(fetcher) reads the whole body; appflip stopped at its own bound of \(cutAt) bytes"
            )
        }
        return .read(response.body)
    }

    /// The statements and include URLs of one file, or why StatementService throws on it.
    private static func read(_ body: [UInt8], url: String) -> Result<([AssetStatement], [String]), Refused> {
        let list = StatementList(json: body)
        if let refusal = list.refusal {
            return .failure(Refused(reason: "\(url): \(refusal.message); StatementService throws"))
        }
        if list.hasByteOrderMark {
            return .failure(Refused(reason: "\(url) starts with a UTF-8 byte order mark, which StatementService's strict JsonReader refuses"))
        }
        guard let statements = list.statementServiceStatements else {
            let failing = list.entries.first { $0.statementService == .failsHost }
            let reasons = list.diagnostics.filter { diagnostic in failing.map { diagnostic.pointer.hasPrefix($0.pointer) } ?? false }.map(\.message)
            return .failure(
                Refused(
                    reason:
                        "\(url) statement \(failing?.pointer ?? ""): \(reasons.joined(separator: "; ")); StatementService throws on it and fails the host"
                )
            )
        }
        let includes = list.entries.compactMap { entry -> String? in
            if case .url(let include)? = entry.include { include } else { nil }
        }
        return .success((statements, includes))
    }

    /// An include at the last level: its own includes are not fetched.
    private static func fetchInclude(_ include: String, responses: [String: FetchResult], legacy: Bool) -> Result<[AssetStatement], Refused> {
        guard let url = try? RawURL(include) else { return .success([]) }
        let scheme = url.normalizedScheme
        if castFailingSchemes.contains(scheme) {
            return .failure(Refused(reason: "include \(include) is not https: StatementService's cast to HttpsURLConnection throws"))
        }
        guard scheme == "https", case .response(let response)? = responses[include], response.status == 200 else { return .success([]) }
        switch body(of: response, url: include, legacy: legacy) {
        case .ignored: return .success([])
        case .refused(let why): return .failure(Refused(state: .rejectedByServer, reason: why))
        case .unread(let why): return .failure(Refused(state: .couldNotJudge, reason: why))
        case .read(let body): return read(body, url: include).map(\.0)
        }
    }
}
