public import AppFlipCore

/// Judges a host's fetched statement lists for one app with the engine's two verifiers: the hosting rules,
/// the file's diagnostics, the delegation, each verifier's verdict per Android generation, and drift.
///
/// A failed hosting rule is reported once, as itself: the checks it leaves nothing to judge for are skipped,
/// and a verifier's verdict is skipped when a rule that verifier cares about broke (Google's verifier
/// reads the content type, StatementService the size; past the size appflip has read nothing for Google's
/// to judge), its predicted state still in the evidence.
public struct AssetLinksChecker: Sendable {
    /// The app: package name and signing-certificate fingerprints, compared exactly.
    public let package: String
    public let fingerprints: [String]

    /// A checker for `package` signed by `fingerprints`.
    public init(package: String, fingerprints: [String]) {
        self.package = package
        self.fingerprints = fingerprints
    }

    /// The report for `lists`; `hosted` false for a local file, whose hosting rules are not checked.
    /// `urls` are links of the host whose Android 15 decision is checked (`assetlinks.url-decision`, one check
    /// each).
    public func check(_ lists: HostedStatementLists, hosted: Bool = true, committed: [UInt8]? = nil, urls: [String] = []) -> AssetLinksReport {
        let responses = lists.responses
        let file = lists.file
        let predictions = predict(host: lists.host, responses: responses)
        var documents: [(url: String, list: StatementList)] = []
        for fetch in lists.fetches {
            if case .response(let response) = fetch.result, response.status == 200 {
                documents.append((fetch.url, StatementList(json: response.body)))
            }
        }
        if hosted, case .failed(let reason) = file.result, !file.overSize {
            return AssetLinksReport(
                host: lists.host,
                url: file.url,
                package: package,
                fingerprints: fingerprints,
                checks: [],
                predictions: predictions,
                documents: documents,
                drift: nil,
                couldNotRun: reason
            )
        }
        var checks: [HostedAssociationCheck] = []
        var broken: Set<AssetLinksRule> = []
        func add(_ rule: AssetLinksRule, _ passed: Bool, _ evidence: String) {
            if !passed { broken.insert(rule) }
            checks.append(
                HostedAssociationCheck(
                    rule: rule.rawValue,
                    title: rule.title,
                    status: passed ? .passed : .failed,
                    evidence: evidence,
                    source: rule.source
                )
            )
        }
        func skip(_ rule: AssetLinksRule, _ evidence: String) {
            checks.append(HostedAssociationCheck(rule: rule.rawValue, title: rule.title, status: .skipped, evidence: evidence, source: rule.source))
        }
        if hosted {
            hostingChecks(file, add: add, skip: skip)
        }
        let readable = broken.isDisjoint(with: [.hostedHTTPS, .hostedNoRedirect, .hostedStatus, .hostedSize])
        if readable {
            let problems = documents.flatMap { document in
                document.list.diagnostics.filter { $0.severity == .error }.map { "\(document.url) \($0)" }
            }
            add(
                .valid,
                problems.isEmpty,
                problems.isEmpty ? "\(documents.count) statement list(s) read without an error" : problems.joined(separator: "; ")
            )
            if let refusal = documents.first(where: { $0.url == file.url })?.list.refusal {
                skip(.delegates, "the file is not a statement list: \(refusal.code.rawValue) \(refusal.message)")
            } else {
                let statements = documents.flatMap { $0.list.googleStatements }
                let delegating = statements.first { $0.delegatesLinks(toPackage: package, signedBy: fingerprints) }
                add(
                    .delegates,
                    delegating != nil,
                    delegating.map { "statement \($0.pointer) delegates handle_all_urls to \(package)" }
                        ?? delegationMiss(documents.flatMap { $0.list.entries.compactMap(\.statement) })
                )
            }
        } else {
            skip(.valid, "the file was not served: see the hosting rule that broke")
            skip(.delegates, "the file was not served: see the hosting rule that broke")
        }
        // A body that is no statement list at all (HTML, not JSON) decides both verdicts: `assetlinks.valid` says so.
        let refused: Set<AssetLinksRule> = documents.first { $0.url == file.url }?.list.refusal == nil ? [] : [.valid]
        verdictCheck(
            .googleVerifies,
            .google,
            cares: refused.union([.hostedHTTPS, .hostedNoRedirect, .hostedStatus, .hostedContentType, .hostedSize, .delegates]),
            broken: broken,
            predictions: predictions,
            add: add,
            skip: skip
        )
        verdictCheck(
            .statementServiceVerifies,
            .statementService,
            cares: refused.union([.hostedHTTPS, .hostedNoRedirect, .hostedStatus, .hostedSize, .delegates]),
            broken: broken,
            predictions: predictions,
            add: add,
            skip: skip
        )
        for url in urls {
            let (status, evidence) = Self.urlDecision(url, host: lists.host, predictions: predictions)
            checks.append(
                HostedAssociationCheck(
                    rule: AssetLinksRule.urlDecision.rawValue,
                    name: "\(AssetLinksRule.urlDecision.rawValue) \(url)",
                    title: AssetLinksRule.urlDecision.title,
                    status: status,
                    evidence: evidence,
                    source: AssetLinksRule.urlDecision.source
                )
            )
        }
        var drift: AssetLinksDrift?
        if let committed {
            let found = AssetLinksDrift(
                committed: committed,
                hosted: documents.first { $0.url == file.url }?.list,
                host: lists.host,
                checker: self,
                responses: responses
            )
            drift = found
            add(.drift, found.isEmpty, found.summary)
        }
        return AssetLinksReport(
            host: lists.host,
            url: file.url,
            package: package,
            fingerprints: fingerprints,
            checks: checks,
            predictions: predictions,
            documents: documents,
            drift: drift,
            couldNotRun: nil
        )
    }

    private func hostingChecks(
        _ file: AssetLinksFetch,
        add: (AssetLinksRule, Bool, String) -> Void,
        skip: (AssetLinksRule, String) -> Void
    ) {
        let later: [AssetLinksRule] = [.hostedNoRedirect, .hostedStatus, .hostedContentType, .hostedSize]
        if case .tlsFailed(let reason) = file.result {
            add(.hostedHTTPS, false, reason)
            for rule in later { skip(rule, "no answer over verified HTTPS") }
            return
        }
        add(.hostedHTTPS, true, "TLS verified for \(file.fetchedFrom)")
        guard case .response(let response) = file.result else {
            // Only an over-size body gets here: the headers were a 200.
            add(.hostedNoRedirect, true, "200, no redirect")
            add(.hostedStatus, true, "200")
            skip(.hostedContentType, "the body was over the size limit")
            add(.hostedSize, false, Self.reason(file.result))
            return
        }
        if (300..<400).contains(response.status) {
            add(
                .hostedNoRedirect,
                false,
                "\(response.status) \(response.location.map { "to \($0)" } ?? "without a Location"); neither verifier follows it"
            )
            for rule in later.dropFirst() { skip(rule, "the file was not served: it redirects") }
            return
        }
        add(.hostedNoRedirect, true, "\(response.status), no redirect")
        guard response.status == 200 else {
            add(.hostedStatus, false, "\(response.status); both verifiers need 200")
            skip(.hostedContentType, "the file was not served: \(response.status)")
            skip(.hostedSize, "the file was not served: \(response.status)")
            return
        }
        add(.hostedStatus, true, "200")
        add(
            .hostedContentType,
            response.isJSON,
            response.isJSON
                ? "Content-Type \(response.contentType ?? "")"
                : "\(response.contentType.map { "Content-Type \($0)" } ?? "no Content-Type"); Google's verifier needs application/json (StatementService does not check)"
        )
        add(.hostedSize, true, "\(response.body.count) bytes")
    }

    private func verdictCheck(
        _ rule: AssetLinksRule,
        _ verifier: AppLinkVerifier,
        cares: Set<AssetLinksRule>,
        broken: Set<AssetLinksRule>,
        predictions: [AppLinksPredictionRow],
        add: (AssetLinksRule, Bool, String) -> Void,
        skip: (AssetLinksRule, String) -> Void
    ) {
        guard let row = predictions.first(where: { $0.verifier == verifier && $0.generation == .android12 }) else { return }
        let evidence = "state \(row.verdict.state): \(row.verdict.reason)"
        if let cause = AssetLinksRule.allCases.first(where: { cares.contains($0) && broken.contains($0) }) {
            skip(rule, "decided by \(cause.rawValue): \(evidence)")
        } else {
            add(rule, row.verdict.state == .verified, evidence)
        }
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

    static func reason(_ result: FetchResult) -> String {
        switch result {
        case .response(let response): "\(response.status)"
        case .failed(let reason), .tlsFailed(let reason): reason
        }
    }
}

/// One verifier's predicted `pm get-app-links` state for the host on one Android generation.
public struct AppLinksPredictionRow: Sendable, Hashable {
    public let verifier: AppLinkVerifier
    public let generation: AndroidGeneration
    public let verdict: HostVerdict
}

extension AssetLinksChecker {
    /// What the file decides for `url` on Android 15, by the first verifier that verifies the host (the two
    /// read the same dynamic rules); skipped when neither verifies it, which its verdict checks report.
    static func urlDecision(_ url: String, host: String, predictions: [AppLinksPredictionRow]) -> (HostedAssociationCheck.Status, String) {
        guard let uri = AndroidURI(url), uri.scheme == "https" || uri.scheme == "http", uri.host.lowercased() == host else {
            return (.failed, "\(url) is not an http or https link of \(host)")
        }
        let android15 = predictions.filter { $0.generation == .android15 }
        guard let verified = android15.first(where: { $0.verdict.state == .verified }) else {
            return (.skipped, "no verifier verifies \(host) for the app: see the verdict checks")
        }
        switch DynamicAppLinkRule.decide(verified.verdict.dynamicRules, for: uri) {
        case .noRules: return (.passed, "no dynamic rules: the manifest's intent filters alone decide")
        case .allowed(let rule): return (.passed, "allowed by the dynamic rule at \(rule.pointer)")
        case .excluded(let rule): return (.failed, "excluded by the dynamic rule at \(rule.pointer): Android 15 opens it in the browser")
        case .noRuleMatched: return (.failed, "no dynamic rule matches it, so Android 15 opens it in the browser")
        }
    }
}
