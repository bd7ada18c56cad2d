import AppFlipClient
public import AppFlipCore
import AppFlipGoogle
public import AppFlipHTTPClient
public import AsyncHTTPClient
import Synchronization

/// One `appflip audit`: every check that applies to the targets given, the others skipped with why, in
/// one ``AuditReport``. Codes for the token endpoint come from the partner app when it yields them, else
/// from the authorization endpoint. The targets' probes record what they find in one ``AuditContext``;
/// the judges then read every exchange, and ``VerdictBuilder`` decides every outcome from the needs and
/// findings, once.
public struct Auditor: Sendable {
    /// The partner app through appflipd, with the daemon's socket.
    public var partner: (target: PartnerAppTarget, socketPath: String)?
    /// The authorization endpoint.
    public var authorization: AuthorizationEndpointTarget?
    /// The token endpoint.
    public var token: TokenEndpointTarget?
    /// The association file.
    public var association: AssociationTarget?
    /// The Android association file (assetlinks.json).
    public var assetLinks: AssetLinksTarget?
    /// The partner's Android App Flip activity, with the daemon's socket.
    public var android: (target: AndroidAppTarget, socketPath: String)?
    /// The partner's own build artifacts (`--app`).
    public var app: AppArtifactTarget?
    /// The redirect URI the single-URI checks use (the state battery, the lookalikes, the token checks);
    /// by default the Google Assistant's production one.
    public var redirectURI: AppFlipRedirectURI
    /// The bounds of each request to the authorization and token endpoints (`OutboundBounds.oauth()`).
    public var bounds: OutboundBounds
    /// How many independent requests to one endpoint may be in flight at once (`--concurrency`): the
    /// authorization endpoint's families. Flips through appflipd go one at a time, so that every URL the
    /// Google app receives belongs to the flip just sent, and the token checks are sequences by nature.
    public var concurrency: Int = Self.defaultConcurrency
    /// Four: a family of a dozen requests costs three round trips, and no endpoint sees more than four at once.
    public static let defaultConcurrency = 4
    /// The whole run's bound (`--timeout`): past it the audit stops, keeps the checks it finished and reports
    /// the rest skipped and the run unfinished (exit status 1). Nil: no bound but each request's.
    public var timeout: Duration?

    /// An audit of the targets given; at least one should be.
    public init(
        partner: (target: PartnerAppTarget, socketPath: String)? = nil,
        authorization: AuthorizationEndpointTarget? = nil,
        token: TokenEndpointTarget? = nil,
        association: AssociationTarget? = nil,
        assetLinks: AssetLinksTarget? = nil,
        redirectURI: AppFlipRedirectURI = AppFlipRedirectURI(app: .assistant, variant: .production, environment: .production),
        bounds: OutboundBounds = .oauth(),
        timeout: Duration? = nil
    ) {
        self.partner = partner
        self.authorization = authorization
        self.token = token
        self.association = association
        self.assetLinks = assetLinks
        self.redirectURI = redirectURI
        self.bounds = bounds
        self.timeout = timeout
    }

    /// Runs the audit; `httpClient` must not follow redirects (`HTTPClient.Configuration.appFlipOAuth()`).
    /// With a `timeout`, returns by then even if a probe is still waiting (it is cancelled, not waited for:
    /// a reply from appflipd cannot be interrupted).
    public func run(httpClient: HTTPClient) async -> AuditReport {
        let context = AuditContext()
        guard let timeout else {
            await run(httpClient: httpClient, context)
            return report(context, stopped: nil)
        }
        let work = Task { await self.run(httpClient: httpClient, context) }
        if await Self.finishes(work, within: timeout) { return report(context, stopped: nil) }
        work.cancel()
        Judges.run(context)
        return report(context, stopped: timeout)
    }

    /// The report from what the run recorded; after `stopped`, an undecided check says the run timed out.
    private func report(_ context: AuditContext, stopped: Duration?) -> AuditReport {
        let snapshot = context.ledger.snapshot(closing: true)
        let reason = stopped.map { "the audit's whole-run timeout (--timeout, \($0)) ran out before this check finished" }
        var unreachable = snapshot.unreachable
        if let stopped {
            unreachable.append(
                "the audit did not finish within its whole-run timeout (--timeout, \(stopped)); the checks it did not finish are skipped"
            )
        }
        let exchanges = context.exchanges.records
        let handoffs = context.exchanges.handoffs
        let results = VerdictBuilder.results(AuditCatalogue.all, snapshot, stopped: reason)
        var report = AuditReport(results: ExchangeReferences(exchanges, handoffs).attached(to: results), unreachable: unreachable)
        report.exchanges = exchanges
        report.handoffs = handoffs
        return report
    }

    /// Whether `work` ends within `timeout`; it is not waited for past it.
    private static func finishes(_ work: Task<Void, Never>, within timeout: Duration) async -> Bool {
        await withCheckedContinuation { continuation in
            let once = ResumeOnce(continuation)
            let timer = Task {
                try? await Task.sleep(for: timeout)
                once.resume(false)
            }
            Task {
                await work.value
                once.resume(true)
                timer.cancel()
            }
        }
    }

    /// The targets given, each as the need that gives it.
    private var given: [AuditTarget: Bool] {
        [
            .partnerApp: partner != nil, .authorizationEndpoint: authorization != nil, .tokenEndpoint: token != nil,
            .associationFile: association != nil, .androidAssociationFile: assetLinks != nil, .androidApp: android != nil,
        ]
    }

    private func run(httpClient: HTTPClient, _ context: AuditContext) async {
        let ledger = context.ledger
        for (target, isGiven) in given {
            ledger.set(AuditNeed(target: target), isGiven ? .met : .notGiven("not run: give \(target.needs)"))
        }
        ledger.set(.scopes, (partner?.target.scopes ?? authorization?.scopes ?? []).isEmpty ? .notGiven("no --scope to ask for") : .met)
        await hostedFiles(context)
        await AppArtifactAudit.run(app, context)
        let authorizationCodes = await authorizationEndpoint(httpClient: httpClient, context)
        let (partnerAudit, connection) = await partnerApp(context)
        let partnerCodes = ledger.isMet(.appCode) ? partnerAudit : nil
        await tokenEndpoint(httpClient: httpClient, context, partnerCodes: partnerCodes, authorizationCodes: authorizationCodes)
        partnerAudit?.finish()
        await connection?.close()
        await androidApp(httpClient: httpClient, context, scopeControl: authorizationCodes)
        Judges.run(context)
    }

    /// The association files, whose targets report finished results: each becomes a finding, or a skip of
    /// its own.
    private func hostedFiles(_ context: AuditContext) async {
        if let association {
            do {
                ingest(try await association.run(observer: context.exchanges.hostedObserver(for: .associationFile)), context)
            } catch {
                unreachable(error, .associationFile, context)
            }
        }
        if let assetLinks {
            do {
                ingest(try await assetLinks.run(observer: context.exchanges.hostedObserver(for: .androidAssociationFile)), context)
            } catch {
                unreachable(error, .androidAssociationFile, context)
            }
        }
    }

    private func ingest(_ results: [AuditResult], _ context: AuditContext) {
        for result in results {
            switch result.outcome {
            case .pass: context.ledger.record(result.check, .held(result.reason, evidence: result.evidence))
            case .fail: context.ledger.record(result.check, .fail(result.reason, evidence: result.evidence))
            case .warning: context.ledger.record(result.check, .warn(result.reason, evidence: result.evidence))
            case .skipped, .couldNotRun:
                context.ledger.set(AuditNeed(target: result.check.target), .nothingToJudge(result.reason), for: result.check)
            }
        }
    }

    /// What could not be reached: said once in `unreachable`, and every check of `target` that found nothing
    /// yet is skipped with it.
    private func unreachable(_ error: AuditUnreachable, _ target: AuditTarget, _ context: AuditContext, also: [CheckSpec] = []) {
        let ledger = context.ledger
        ledger.unreachable("\(error)")
        let found = ledger.snapshot().findings
        for check in AuditCatalogue.checks(of: target) + also where found[check]?.contains(where: { $0.kind != .note }) != true {
            ledger.set(AuditNeed(target: target), .couldNotRun(.unreachable, "\(error)"), for: check)
        }
    }

    private func authorizationEndpoint(httpClient: HTTPClient, _ context: AuditContext) async -> AuthorizationEndpointAudit? {
        guard let authorization else { return nil }
        var audit = AuthorizationEndpointAudit(
            target: authorization,
            redirectURI: redirectURI,
            httpClient: httpClient,
            bounds: bounds,
            context: context
        )
        audit.concurrency = concurrency
        do {
            try await audit.probe()
        } catch {
            unreachable(error, .authorizationEndpoint, context)
            return nil
        }
        return context.ledger.isMet(.authorizationCode) ? audit : nil
    }

    private func partnerApp(_ context: AuditContext) async -> (PartnerAppAudit?, AppFlipConnection?) {
        guard let partner else { return (nil, nil) }
        var opened: AppFlipConnection?
        do {
            let connection = try await Self.connect(partner.socketPath)
            opened = connection
            let google = try await Self.registerGoogle(on: connection)
            let audit = PartnerAppAudit(target: partner.target, redirectURI: redirectURI, connection: connection, google: google, context: context)
            try await audit.probe()
            return (audit, connection)
        } catch {
            unreachable(error, .partnerApp, context)
            return (nil, opened)
        }
    }

    private func tokenEndpoint(
        httpClient: HTTPClient,
        _ context: AuditContext,
        partnerCodes: PartnerAppAudit?,
        authorizationCodes: AuthorizationEndpointAudit?
    ) async {
        guard let token else { return }
        let ledger = context.ledger
        let audit = TokenEndpointAudit(target: token, redirectURI: redirectURI, httpClient: httpClient, bounds: bounds, context: context)
        let codeSource: (any AuditCodeSource)? = partnerCodes ?? authorizationCodes
        let partnerScope = partnerCodes.map { app in
            TokenEndpointAudit.PartnerScopeSources(app: app, control: authorizationCodes, scopes: partner?.target.scopes ?? [])
        }
        if codeSource != nil {
            ledger.establish(.code)
        } else if partner == nil && authorization == nil {
            ledger.set(.code, .notGiven("no code to exchange: give the partner app (--link, --client-id) or --authorize-url"))
        } else {
            let sources = [partner.map { _ in "partner.code" }, authorization.map { _ in "authorize.code" }].compactMap { $0 }
            ledger.set(.code, .nothingToJudge("no code to exchange: no source yields one (\(sources.joined(separator: ", ")))"))
        }
        do {
            if let codeSource {
                try await audit.probe(codes: codeSource, partnerScope: partnerScope)
            } else {
                try await audit.probeWithoutCodes()
            }
        } catch {
            unreachable(error, .tokenEndpoint, context, also: partnerScope == nil ? [] : [.partnerScope])
        }
    }

    private func androidApp(httpClient: HTTPClient, _ context: AuditContext, scopeControl: AuthorizationEndpointAudit?) async {
        guard let android else { return }
        let audit = AndroidAppAudit(
            target: android.target,
            socketPath: android.socketPath,
            token: token,
            scopeControl: scopeControl,
            redirectURI: redirectURI,
            httpClient: httpClient,
            bounds: bounds,
            context: context
        )
        do {
            try await audit.probe()
        } catch {
            unreachable(error, .androidApp, context)
        }
    }

    private static func connect(_ socketPath: String) async throws(AuditUnreachable) -> AppFlipConnection {
        do {
            return try await AppFlipConnection.connect(to: socketPath, client: "appflip-audit")
        } catch {
            throw AuditUnreachable(DaemonUnreachable.sentence(socketPath: socketPath))
        }
    }

    private static func registerGoogle(on connection: AppFlipConnection) async throws(AuditUnreachable) -> GoogleApp {
        do {
            return try await GoogleApp.register(on: connection, bundleID: nil)
        } catch {
            throw AuditUnreachable("cannot register as the Google app for every redirect path (/a/*): \(error)")
        }
    }
}

/// Resumes a continuation once, with the first of several racing values.
private final class ResumeOnce: Sendable {
    private let continuation: Mutex<CheckedContinuation<Bool, Never>?>

    init(_ continuation: CheckedContinuation<Bool, Never>) {
        self.continuation = Mutex(continuation)
    }

    func resume(_ value: Bool) {
        continuation.withLock { $0.take() }?.resume(returning: value)
    }
}

/// Something the audit needed could not be reached (a socket, a host, a port): the audit could not run
/// fully, exit status 1, and the description says what and how to fix it.
public struct AuditUnreachable: Error, Sendable, CustomStringConvertible {
    /// What was unreachable and why, in one sentence.
    public var description: String

    /// Records what was unreachable.
    public init(_ description: String) {
        self.description = description
    }
}
