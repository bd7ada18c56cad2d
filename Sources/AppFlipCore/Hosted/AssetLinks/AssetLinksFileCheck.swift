/// Android's own rules for a host's statement list and its includes, judged with the engine's two verifiers
/// once the hosting rules are: the lists are valid, one delegates to the app, each verifier verifies the host,
/// each URL opens the app on Android 15, and the file means what a committed one means. What `appflip
/// assetlinks check` and the audit's Android association target run, through `HostedCheckRunner`.
///
/// A failed hosting rule is reported once, as itself: the checks it leaves nothing to judge for are skipped,
/// and a verifier's verdict is skipped when a rule that verifier reads broke (Google's verifier reads the
/// content type and, past 1 MiB, a limit it does not publish; StatementService a declared size), its
/// predicted state still in the evidence; so is a verdict appflip could not judge.
public struct AssetLinksFileCheck: HostedFileCheck {
    /// The app: package name and signing-certificate fingerprints, compared exactly.
    public let package: String
    public let fingerprints: [String]
    /// Links of the host whose Android 15 decision is checked, one `assetlinks.url-decision` each.
    public let urls: [String]
    /// The committed statement list to compare the hosted one with.
    public let committed: [UInt8]?

    /// The checks for `package` signed by `fingerprints`.
    public init(package: String, fingerprints: [String], urls: [String] = [], committed: [UInt8]? = nil) {
        self.package = package
        self.fingerprints = fingerprints
        self.urls = urls
        self.committed = committed
    }

    public var policy: HostingPolicy { .assetLinks }

    /// The `https` includes a 200 answer names; an `http` one neither verifier reads from an https file.
    public static func includes(of fetch: HostedFetch) -> [String] {
        guard case .response(let response) = fetch.verifierResult, response.status == 200, response.cutAt == nil else { return [] }
        return StatementList(json: response.body).entries.compactMap { entry in
            guard case .url(let include)? = entry.include, (try? RawURL(include))?.normalizedScheme == "https" else { return nil }
            return include
        }
    }

    public func judge(host: String, fetches: [HostedFetch], hosting: HostingVerdict) -> (checks: [HostedCheck], details: AssetLinksReportDetails) {
        let responses = Dictionary(fetches.map { ($0.url, $0.verifierResult) }, uniquingKeysWith: { first, _ in first })
        var details = AssetLinksReportDetails(
            host: host,
            package: package,
            predictions: predict(host: host, responses: responses),
            documents: fetches.compactMap { fetch in
                guard case .response(let response) = fetch.verifierResult, response.status == 200, response.cutAt == nil else { return nil }
                return (fetch.url, StatementList(json: response.body))
            },
            api: GoogleVerifier.verify(site: WebSite(scheme: "https", host: host), responses: responses)
        )
        let file = details.documents.first { $0.url == fetches[0].url }?.list
        var checks = contentChecks(hosting, documents: details.documents, file: file)
        checks += verdictChecks(
            failed: (hosting.checks + checks).filter { $0.status == .failed },
            refused: file?.refusal != nil,
            sizeDeclared: fetches[0].bodyFailure?.overCap == .declared,
            details.predictions
        )
        checks += urls.map { Self.urlCheck($0, host: host, predictions: details.predictions) }
        if let committed {
            let drift = AssetLinksDrift(committed: committed, hosted: file, host: host, check: self, responses: responses)
            details.drift = drift
            checks.append(HostedCheck(Self.drift, passed: drift.isEmpty, drift.summary))
        }
        return (checks, details)
    }

    /// Each verifier's verdict on each Android generation for this one host.
    func predict(host: String, responses: [String: FetchResult]) -> [AppLinksPredictionRow] {
        let filter = IntentFilter(autoVerify: true, schemes: ["https"], authorities: [IntentFilter.Authority(host: host)])
        let app = AndroidIdentity(package: package, fingerprints: fingerprints, intentFilters: [filter])
        return AppLinkVerifier.allCases.flatMap { verifier in
            AndroidGeneration.allCases.map { generation in
                let verdict =
                    AppLinksPrediction.verdicts(for: app, verifier: verifier, generation: generation, responses: responses)[host]
                    ?? HostVerdict(state: .none, reason: "not verified")
                return AppLinksPredictionRow(verifier: verifier, generation: generation, verdict: verdict)
            }
        }
    }
}

extension AssetLinksFileCheck {
    /// Every statement list read is valid.
    public static let valid = HostedRule(
        id: "assetlinks.valid",
        title: "every statement list read is a valid statement list, without a named mistake",
        sentence:
            "Every statement list read (the file and its includes) is a JSON array of well-formed statements; each mistake is named by its DAL code, line and column.",
        source:
            "google/digitalassetlinks well-known/details.md and compatibility-tests/v1; StatementService StatementParser.kt; docs/android.md (DAL codes)"
    )

    /// A statement delegates the app's links.
    public static let delegates = HostedRule(
        id: "assetlinks.delegates",
        title: "a statement delegates handle_all_urls to the package with the fingerprint",
        sentence:
            "A statement grants delegate_permission/common.handle_all_urls to an android_app target with the package and one of its SHA-256 fingerprints, compared exactly.",
        source: "google/digitalassetlinks well-known/details.md (delegate_permission/common.handle_all_urls, sha256_cert_fingerprints)"
    )

    /// `assetlinks.valid` and `assetlinks.delegates` on every statement list read; skipped when the host served
    /// no file to read, and the delegation when the file is no statement list at all.
    private func contentChecks(_ hosting: HostingVerdict, documents: [AssetLinksReportDetails.Document], file: StatementList?) -> [HostedCheck] {
        guard hosting.body != nil else {
            let cause = hosting.failed?.id ?? "the fetch"
            return [.skipped(Self.valid, because: cause), .skipped(Self.delegates, because: cause)]
        }
        let problems = documents.flatMap { document in
            document.list.diagnostics.filter { $0.severity == .error }.map { "\(document.url) \($0)" }
        }
        let valid = HostedCheck(
            Self.valid,
            passed: problems.isEmpty,
            problems.isEmpty ? "\(documents.count) statement list(s) read without an error" : problems.joined(separator: "; ")
        )
        if let refusal = file?.refusal {
            return [valid, HostedCheck(Self.delegates, .skipped, "the file is not a statement list: \(refusal.code.rawValue) \(refusal.message)")]
        }
        let delegating = documents.flatMap { $0.list.googleStatements }.first { $0.delegatesLinks(toPackage: package, signedBy: fingerprints) }
        let evidence =
            delegating.map { "statement \($0.pointer) delegates handle_all_urls to \(package)" }
            ?? delegationMiss(documents.flatMap { $0.list.entries.compactMap(\.statement) })
        return [valid, HostedCheck(Self.delegates, passed: delegating != nil, evidence)]
    }

    /// Why no statement delegates: the package named (in any statement, a skipped one too) with other
    /// fingerprints, or not at all.
    private func delegationMiss(_ statements: [AssetStatement]) -> String {
        let named = statements.compactMap { statement -> [String]? in
            guard case .androidApp(let name, let written) = statement.target, name == package else { return nil }
            return written
        }
        if named.isEmpty { return "no statement names \(package) (fingerprints are compared exactly, upper case)" }
        return
            "\(package) is named with \(named.flatMap { $0 }.joined(separator: ", ")), not with \(fingerprints.joined(separator: ", ")) (compared exactly, upper case), or without handle_all_urls"
    }
}

extension AssetLinksFileCheck {
    /// Google's verifier verifies the host.
    public static let googleVerifies = HostedRule(
        id: "assetlinks.google-verifies",
        title: "Google's verifier (devices with Play services) verifies the host for the app",
        sentence: "Google's verifier, reading the file and its includes as the Digital Asset Links API does, verifies the host for the app.",
        source: "DAL API behaviour pinned by google/digitalassetlinks compatibility-tests/v1; docs/android.md"
    )

    /// StatementService verifies the host.
    public static let statementServiceVerifies = HostedRule(
        id: "assetlinks.statement-service-verifies",
        title: "AOSP's StatementService (Android 12+ without Play services) verifies the host for the app",
        sentence:
            "StatementService, which fails the whole host on a statement it cannot parse (1028) and reads one level of includes, verifies the host for the app.",
        source: "AOSP packages/StatementService domain/DomainVerifier.kt, domain/VerifyStatus.kt; docs/android.md"
    )

    /// Each verifier's verdict on Android 12 to 14, skipped when a rule it reads broke (`failed`): HTTPS, no
    /// redirect, 200, the delegation, Google's the content type and the size (past 1 MiB its verdict is not
    /// judged), StatementService's the size when a `Content-Length` declared it (`sizeDeclared`: a body sent
    /// without one it reads whole); both the validity of a file that is no statement list at all
    /// (`refused`), which decides them both. A verdict appflip could not judge is skipped, saying why.
    private func verdictChecks(failed: [HostedCheck], refused: Bool, sizeDeclared: Bool, _ predictions: [AppLinksPredictionRow]) -> [HostedCheck] {
        let hosting = policy.rules
        let both = [hosting.https, hosting.noRedirect, hosting.status, Self.delegates] + (refused ? [Self.valid] : [])
        let verifiers = [
            (Self.googleVerifies, AppLinkVerifier.google, both + [hosting.contentType, hosting.size]),
            (Self.statementServiceVerifies, .statementService, both + (sizeDeclared ? [hosting.size] : [])),
        ]
        return verifiers.compactMap { rule, verifier, reads in
            guard let row = predictions.first(where: { $0.verifier == verifier && $0.generation == .android12 }) else { return nil }
            let evidence = "state \(row.verdict.state): \(row.verdict.reason)"
            if let cause = failed.first(where: { check in reads.contains { $0.id == check.rule } }) {
                return HostedCheck(rule, .skipped, "decided by \(cause.rule): \(evidence)")
            }
            if row.verdict.state == .couldNotJudge { return HostedCheck(rule, .skipped, evidence) }
            return HostedCheck(rule, passed: row.verdict.state == .verified, evidence)
        }
    }
}

extension AssetLinksFileCheck {
    /// A URL opens the app on Android 15.
    public static let urlDecision = HostedRule(
        id: "assetlinks.url-decision",
        title: "the file lets the app open the URL on Android 15 (its dynamic rules)",
        sentence:
            "Each --url is a link of the host, and on Android 15 the delegating statement's dynamic_app_link_components let the app open it (the first matching rule is not an exclude, and some rule matches); before Android 15 the manifest's filters alone decide.",
        source:
            "developer.android.com/training/app-links/configure-assetlinks (dynamic_app_link_components, Android 15); AOSP DomainVerificationUtils / UriRelativeFilterGroup; docs/android.md (dynamic rules)"
    )

    /// What the file decides for `url` on Android 15, by the first verifier that verifies the host (the two
    /// read the same dynamic rules); skipped when neither verifies it, which its verdict checks report.
    static func urlCheck(_ url: String, host: String, predictions: [AppLinksPredictionRow]) -> HostedCheck {
        let name = "\(urlDecision.id) \(url)"
        guard let uri = AndroidURI(url), uri.scheme == "https" || uri.scheme == "http", uri.host.lowercased() == host else {
            return HostedCheck(urlDecision, name: name, .failed, "\(url) is not an http or https link of \(host)")
        }
        let android15 = predictions.filter { $0.generation == .android15 }
        guard let verified = android15.first(where: { $0.verdict.state == .verified }) else {
            return HostedCheck(urlDecision, name: name, .skipped, "no verifier verifies \(host) for the app: see the verdict checks")
        }
        switch DynamicAppLinkRule.decide(verified.verdict.dynamicRules, for: uri) {
        case .noRules: return HostedCheck(urlDecision, name: name, .passed, "no dynamic rules: the manifest's intent filters alone decide")
        case .allowed(let rule): return HostedCheck(urlDecision, name: name, .passed, "allowed by the dynamic rule at \(rule.pointer)")
        case .excluded(let rule):
            return HostedCheck(
                urlDecision,
                name: name,
                .failed,
                "excluded by the dynamic rule at \(rule.pointer): Android 15 opens it in the browser"
            )
        case .noRuleMatched: return HostedCheck(urlDecision, name: name, .failed, "no dynamic rule matches it, so Android 15 opens it in the browser")
        }
    }

    /// The hosted file means what the committed one means.
    public static let drift = HostedRule(
        id: "assetlinks.drift",
        title: "the hosted file means what the committed one means",
        sentence: "The hosted file delegates to the same package and fingerprint pairs, with the same verdicts, as the committed file.",
        source: "docs/android.md (drift)"
    )
}
