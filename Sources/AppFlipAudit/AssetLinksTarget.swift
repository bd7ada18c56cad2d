import AppFlipConfiguration
public import AppFlipCore
public import AppFlipHTTPClient

/// The Android association file an audit checks: a host's `/.well-known/assetlinks.json` (or a local copy)
/// for the partner's package and signing-certificate fingerprints, judged as `appflip assetlinks check` judges it.
public struct AssetLinksTarget: Sendable, Hashable {
    /// Where the statement list comes from.
    public enum Source: Sendable, Hashable {
        /// A local file: the `assetlinks.hosted-*` checks are skipped, its includes are not fetched.
        case file(path: String)
        /// The file `host` serves, fetched as `appflip assetlinks check` fetches it.
        case hosted(host: String, fetch: AssetLinksFetchOptions)
    }

    public var source: Source
    /// The partner app's package name.
    public var package: String
    /// Its signing certificates' SHA-256 fingerprints (current and rotated).
    public var fingerprints: [String]

    /// The statement list at `source` for `package` signed by `fingerprints`.
    public init(source: Source, package: String, fingerprints: [String]) {
        self.source = source
        self.package = package
        self.fingerprints = fingerprints
    }

    /// The `assetlinks.*` checks; an unreadable file or a host that does not answer is unreachable.
    public func run() async throws(AuditUnreachable) -> [AuditResult] {
        let checker = AssetLinksChecker(package: package, fingerprints: fingerprints)
        switch source {
        case .file(let path):
            let bytes: [UInt8]
            do {
                bytes = try ConfigurationFile.read(path)
            } catch {
                throw AuditUnreachable("the assetlinks file: \(error)")
            }
            let url = StatementServiceVerifier.statementListURL(forManifestHost: "localhost")
            let response = HostResponse(status: 200, contentType: "application/json", contentLength: bytes.count, body: bytes)
            let lists = HostedStatementLists(
                host: "localhost",
                fetches: [AssetLinksFetch(url: url, fetchedFrom: path, result: .response(response), overSize: false)]
            )
            let notHosted = "\(path) is a local file; give --assetlinks-domain to check the hosted one"
            return Self.results(of: checker.check(lists, hosted: false), url: path)
                + Self.hosting.map { AuditResult($0, .skipped, notHosted) }
        case .hosted(let host, let fetch):
            let lists: HostedStatementLists
            do {
                lists = try await AssetLinksFetcher(options: fetch).fetch(host: host)
            } catch {
                throw AuditUnreachable("the assetlinks file of \(host): \(error)")
            }
            let report = checker.check(lists)
            if let reason = report.couldNotRun {
                throw AuditUnreachable("the assetlinks file of \(host): \(reason)")
            }
            return Self.results(of: report, url: report.url)
        }
    }

    static let hosting: [CheckSpec] = [
        .assetLinksHostedHTTPS, .assetLinksHostedNoRedirect, .assetLinksHostedStatus, .assetLinksHostedContentType, .assetLinksHostedSize,
    ]

    /// The checker's report as audit results, each check under its own id; the diagnostics of every file read
    /// are the evidence of `assetlinks.valid`, a warning when
    /// only warnings were found.
    static func results(of report: AssetLinksReport, url: String) -> [AuditResult] {
        let diagnostics = report.documents.flatMap { document in document.list.diagnostics.map { "\(document.url) \($0)" } }
        return report.checks.compactMap { check in
            guard let id = AuditCatalogue.spec(id: check.rule) else { return nil }
            let outcome: AuditOutcome =
                switch check.status {
                case .passed: .pass
                case .failed: .fail
                case .skipped: .skipped
                }
            guard id == .assetLinksValid else {
                return AuditResult(id, outcome, check.evidence, evidence: ["\(check.rule) at \(url): \(check.evidence)"])
            }
            // Valid with warnings (a null StatementService refuses, an AASA key) is a warning, as `aasa.valid` is.
            let warned = outcome == .pass && !diagnostics.isEmpty
            return AuditResult(
                id,
                warned ? .warning : outcome,
                warned ? "valid, with \(diagnostics.count) warning(s)" : check.evidence,
                evidence: diagnostics
            )
        }
    }
}
