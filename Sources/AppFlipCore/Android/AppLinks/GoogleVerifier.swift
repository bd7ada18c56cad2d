/// Google's verifier: the Digital Asset Links API's reading of a site's statements, which the verifier on
/// devices with Google Play services follows, as pinned by Google's compatibility suite
/// (google/digitalassetlinks `compatibility-tests/v1`) and `well-known/details.md`.
///
/// The file must answer 200 with `Content-Type: application/json` (API error codes `REDIRECT`: "HTTP
/// redirects (e.g, 301) are not allowed", `WRONG_CONTENT_TYPE`: "should be application/json"), an include 200
/// ("Include files are only processed if the HTTP status code is 200", `details.md`); a malformed
/// statement is skipped and reported (`MALFORMED_CONTENT`, comptest2003); includes are followed, nested, under
/// a fetch budget (comptest5005), and a secure source may not include an `http:` file (comptest5006–5009).
public enum GoogleVerifier {
    /// The Digital Asset Links API's error codes about fetching and reading statements
    /// (google/digitalassetlinks `compatibility-tests/v1/messages.proto`, each with its comment there);
    /// `ERROR_CODE_INVALID_QUERY` concerns a request, not a file, and never comes from a file.
    public enum ErrorCode: String, Sendable, Hashable, CaseIterable {
        /// "Unable to fetch the asset links data."
        case fetchError = "ERROR_CODE_FETCH_ERROR"
        /// "Invalid HTTPS certificate."
        case failedSSLValidation = "ERROR_CODE_FAILED_SSL_VALIDATION"
        /// "HTTP redirects (e.g, 301) are not allowed."
        case redirect = "ERROR_CODE_REDIRECT"
        /// "Asset links data exceeds maximum size." Google does not publish the size.
        case tooLarge = "ERROR_CODE_TOO_LARGE"
        /// "Can't parse HTTP response."
        case malformedHTTPResponse = "ERROR_CODE_MALFORMED_HTTP_RESPONSE"
        /// "HTTP Content-type should be application/json."
        case wrongContentType = "ERROR_CODE_WRONG_CONTENT_TYPE"
        /// "JSON content is malformed."
        case malformedContent = "ERROR_CODE_MALFORMED_CONTENT"
        /// "A secure asset includes an insecure asset (security downgrade)."
        case secureAssetIncludesInsecure = "ERROR_CODE_SECURE_ASSET_INCLUDES_INSECURE"
        /// "Too many includes (maybe a loop)."
        case fetchBudgetExhausted = "ERROR_CODE_FETCH_BUDGET_EXHAUSTED"
    }

    /// The most body bytes appflip predicts Google's verdict for. Google publishes no maximum
    /// (`ERROR_CODE_TOO_LARGE`); 1 MiB, the limit both of AOSP's fetchers apply, is a size every Android
    /// verifier reads, so past it appflip does not judge Google's verdict.
    public static let judgedSize = StatementServiceVerifier.sizeLimit

    /// Fetches allowed per query, the first included. Google does not publish its budget; any bound ends an
    /// include loop the same way (comptest5005: the statements found so far still count).
    public static let fetchBudget = 10

    /// What Google's verifier reads from `site`'s statement list and its includes.
    public struct Verification: Sendable {
        /// The statement list's address.
        public let url: String
        /// Every statement kept, from the file and its includes, without repeats.
        public let statements: [AssetStatement]
        /// The API's error codes, each once, in the order met; empty when nothing went wrong.
        public let errors: [ErrorCode]
        /// Why each error happened, in users' words, in the same order as met.
        public let problems: [String]
        /// Every statement list read, by URL, with its diagnostics.
        public let documents: [(url: String, list: StatementList)]
        /// The files over ``GoogleVerifier/judgedSize``: whether Google reads them, or answers
        /// `ERROR_CODE_TOO_LARGE`, is not known.
        public let unjudged: [String]

        /// The API's outcome: `SUCCESS` without an error, `FETCH_ERROR` with one (`compatibility_test_suite.proto`);
        /// nil when there is none but a file was too large to judge.
        public var outcome: String? {
            if !errors.isEmpty { return "FETCH_ERROR" }
            return unjudged.isEmpty ? "SUCCESS" : nil
        }

        /// The host's predicted state for an app: verified when a statement delegates `handle_all_urls` to it;
        /// not judged when a file too large to judge could hold the statement.
        public func verdict(forPackage packageName: String, signedBy fingerprints: [String]) -> HostVerdict {
            if let statement = statements.first(where: { $0.delegatesLinks(toPackage: packageName, signedBy: fingerprints) }) {
                return HostVerdict(
                    state: .verified,
                    reason: "statement \(statement.pointer) delegates handle_all_urls to \(packageName)",
                    dynamicRules: statement.dynamicRules
                )
            }
            let api = errors.isEmpty ? "" : " (\(errors.map(\.rawValue).joined(separator: ", ")))"
            if !unjudged.isEmpty {
                return HostVerdict(
                    state: .couldNotJudge,
                    reason: unjudged.joined(separator: "; ") + (problems.isEmpty ? "" : "; " + problems.joined(separator: "; "))
                )
            }
            let why =
                problems.isEmpty
                ? "no statement delegates handle_all_urls to \(packageName) with one of its certificates" : problems.joined(separator: "; ")
            // Google's verifier is closed source; devices with Play services report 1024 for its failures.
            return HostVerdict(state: .unknown, reason: why + api)
        }
    }

    /// Reads `site`'s `/.well-known/assetlinks.json` and its includes from `responses` (keyed by URL; a URL
    /// missing from it counts as unreachable).
    public static func verify(site: WebSite, responses: [String: FetchResult]) -> Verification {
        verify(statementListAt: site.statementListURL, secure: site.scheme == "https", responses: responses)
    }

    /// Reads the statement list at `url` as the source's own, for a source whose list lives elsewhere (an
    /// APK's, in the compatibility suite); `secure` sources may not include `http:` files.
    public static func verify(statementListAt url: String, secure: Bool, responses: [String: FetchResult]) -> Verification {
        var state = State(secure: secure)
        state.read(url: url, responses: responses, isInclude: false)
        return Verification(
            url: url,
            statements: state.statements,
            errors: state.errors,
            problems: state.problems,
            documents: state.documents,
            unjudged: state.unjudged
        )
    }

    private struct State {
        let secure: Bool
        var statements: [AssetStatement] = []
        var errors: [ErrorCode] = []
        var problems: [String] = []
        var documents: [(url: String, list: StatementList)] = []
        var unjudged: [String] = []
        var fetches = 0

        mutating func fail(_ code: ErrorCode, _ problem: String) {
            if !errors.contains(code) { errors.append(code) }
            problems.append(problem)
        }

        mutating func read(url: String, responses: [String: FetchResult], isInclude: Bool) {
            guard fetches < GoogleVerifier.fetchBudget else {
                fail(.fetchBudgetExhausted, "fetch budget exhausted before \(url) (an include loop?)")
                return
            }
            fetches += 1
            let response: HostResponse
            switch responses[url] {
            case .response(let answer)?: response = answer
            case .tlsFailed(let reason)?:
                fail(.failedSSLValidation, "\(url): TLS failed: \(reason)")
                return
            case .failed(let reason)?:
                fail(.fetchError, "\(url): \(reason)")
                return
            case .malformedHTTP(let reason)?:
                fail(.malformedHTTPResponse, "\(url): \(reason)")
                return
            case nil:
                fail(.fetchError, "\(url) could not be fetched")
                return
            }
            if (300..<400).contains(response.status) {
                fail(
                    .redirect,
                    "\(url) answers \(response.status), a redirect\(response.location.map { " to \($0)" } ?? ""); redirects are not followed"
                )
                return
            }
            guard response.status == 200 else {
                fail(.fetchError, "\(url) answers \(response.status), not 200")
                return
            }
            // The content type is documented for the site's own file; for includes only the status is.
            guard isInclude || response.isJSON else {
                fail(.wrongContentType, "\(url) is served as \(response.contentType ?? "no content type"); it should be application/json")
                return
            }
            if response.exceeds(GoogleVerifier.judgedSize) {
                let size = response.contentLength.map { "declares \($0) bytes" } ?? "sends more than 1 MiB"
                unjudged.append(
                    "\(url) \(size): Google's verifier refuses files over a maximum it does not publish (ERROR_CODE_TOO_LARGE), so appflip does not judge its verdict past 1 MiB"
                )
                return
            }
            let list = StatementList(json: response.body)
            documents.append((url, list))
            if let refusal = list.refusal {
                fail(.malformedContent, "\(url): \(refusal.message)")
                return
            }
            for entry in list.entries {
                if entry.google == .skipped {
                    let reasons = list.diagnostics.filter { $0.severity == .error && $0.pointer.hasPrefix(entry.pointer) }.map(\.message)
                    fail(.malformedContent, "\(url) statement \(entry.pointer) is skipped: \(reasons.joined(separator: "; "))")
                    continue
                }
                if let statement = entry.statement, !statements.contains(statement) { statements.append(statement) }
                if case .url(let include)? = entry.include {
                    // Security holds along the fetch stack: a secure source's files, and any https file, may
                    // include only https files (comptest5006, 5009).
                    let secureStack = secure || (try? RawURL(url))?.normalizedScheme == "https"
                    if secureStack && (try? RawURL(include))?.normalizedScheme == "http" {
                        fail(.secureAssetIncludesInsecure, "\(url) includes \(include): a secure source or file may not include an http file")
                        continue
                    }
                    read(url: include, responses: responses, isInclude: true)
                }
            }
        }
    }
}
