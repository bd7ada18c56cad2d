import AppFlipClient
public import AppFlipCore
import AppFlipGoogle
public import AppFlipHTTPClient
public import AsyncHTTPClient
import NIOConcurrencyHelpers

/// One `appflip audit`: every check that applies to the targets given, the others skipped with why, in
/// one ``AuditReport``. The preconditions run first, one after the other; then the partner app's, the
/// authorization endpoint's and the token endpoint's families at once. Codes for the token endpoint come
/// from the partner app when it yields them, else from the authorization endpoint. The targets' probes
/// record what they find in one ``AuditContext``; the judges then read every exchange, and
/// ``VerdictBuilder`` decides every outcome from the needs and findings, once.
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
    /// authorization endpoint's families, and the token endpoint's checks, each on material of its own. Flips
    /// through appflipd go one at a time, so that every URL the Google app receives belongs to the flip just
    /// sent; the three targets' families run beside each other.
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
        context.exchanges.limit(concurrency)
        for (target, isGiven) in given {
            ledger.set(AuditNeed(target: target), isGiven ? .met : .notGiven("not run: give \(target.needs)"))
        }
        ledger.set(.scopes, (partner?.target.scopes ?? authorization?.scopes ?? []).isEmpty ? .notGiven("no --scope to ask for") : .met)
        ledger.set(
            .sessionEnd,
            authorization?.signOut == nil ? .notGiven("no way to end the session: give --sign-out-url (with --authorize-url)") : .met
        )
        await hostedFiles(context)
        await AppArtifactAudit.run(app, context)
        // The preconditions first, one after the other: whose fault a missing code is depends on them.
        let authorizationAudit = await authorizationPreconditions(httpClient: httpClient, context)
        let (partnerAudit, connection) = await partnerPreconditions(context)
        let partnerCodes = ledger.isMet(.appCode) ? partnerAudit : nil
        let authorizationCodes = ledger.isMet(.authorizationCode) ? authorizationAudit : nil
        // Then the families of the three targets at once: each bounds its own requests, and flips through
        // appflipd go one at a time whoever sends them.
        let tokenAudit = token.map {
            var audit = TokenEndpointAudit(target: $0, redirectURI: redirectURI, httpClient: httpClient, bounds: bounds, context: context)
            audit.concurrency = concurrency
            return audit
        }
        let client: TokenEndpointAudit.Client?
        if concurrency > 1 {
            async let authorizationFamilies: Void = families(authorizationAudit, context)
            async let partnerFamilies: Void = families(partnerAudit, context)
            async let google = tokenEndpoint(tokenAudit, context, partnerCodes: partnerCodes, authorizationCodes: authorizationCodes)
            client = await google
            _ = await (authorizationFamilies, partnerFamilies)
        } else {
            // One request at a time to the partner: the targets one after another too.
            await families(authorizationAudit, context)
            await families(partnerAudit, context)
            client = await tokenEndpoint(tokenAudit, context, partnerCodes: partnerCodes, authorizationCodes: authorizationCodes)
        }
        // Last, since it may end the audit's own session: a refresh token outlives the sign-in session.
        if let tokenAudit, let client, let authorizationCodes {
            do {
                try await tokenAudit.outlivesSession(authorizationCodes, client)
            } catch {
                unreachable(error, .tokenEndpoint, context)
            }
        }
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
        // Cancelled by the whole-run timeout: the request was cut short by the audit, not refused by the
        // partner, and the report says the run timed out.
        guard !Task.isCancelled else { return }
        let ledger = context.ledger
        ledger.unreachable("\(error)")
        let found = ledger.snapshot().findings
        for check in AuditCatalogue.checks(of: target) + also where found[check]?.contains(where: { $0.kind != .note }) != true {
            ledger.set(AuditNeed(target: target), .couldNotRun(.unreachable, "\(error)"), for: check)
        }
    }

    /// The authorization endpoint's preconditions; nil when it is not given or cannot be reached.
    private func authorizationPreconditions(httpClient: HTTPClient, _ context: AuditContext) async -> AuthorizationEndpointAudit? {
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
            try await audit.preconditions()
        } catch {
            unreachable(error, .authorizationEndpoint, context)
            return nil
        }
        return audit
    }

    private func families(_ audit: AuthorizationEndpointAudit?, _ context: AuditContext) async {
        guard let audit else { return }
        do {
            try await audit.families()
        } catch {
            unreachable(error, .authorizationEndpoint, context)
        }
    }

    /// The partner app's preconditions (`partner.route`, `partner.code`); the audit is nil when appflipd
    /// cannot be reached or the link reaches no app.
    private func partnerPreconditions(_ context: AuditContext) async -> (PartnerAppAudit?, AppFlipConnection?) {
        guard let partner else { return (nil, nil) }
        var opened: AppFlipConnection?
        do {
            let connection = try await Self.connect(partner.socketPath)
            opened = connection
            let google = try await Self.registerGoogle(on: connection)
            let audit = PartnerAppAudit(target: partner.target, redirectURI: redirectURI, connection: connection, google: google, context: context)
            guard try await audit.routeAndCode() else { return (nil, connection) }
            return (audit, connection)
        } catch {
            unreachable(error, .partnerApp, context)
            return (nil, opened)
        }
    }

    private func families(_ audit: PartnerAppAudit?, _ context: AuditContext) async {
        guard let audit else { return }
        do {
            try await audit.families()
        } catch {
            unreachable(error, .partnerApp, context)
        }
    }

    /// The token endpoint's checks; returns the client they authenticated as, for the session check.
    private func tokenEndpoint(
        _ audit: TokenEndpointAudit?,
        _ context: AuditContext,
        partnerCodes: PartnerAppAudit?,
        authorizationCodes: AuthorizationEndpointAudit?
    ) async -> TokenEndpointAudit.Client? {
        guard let audit else { return nil }
        let ledger = context.ledger
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
                return try await audit.probe(codes: codeSource, partnerScope: partnerScope)
            }
            try await audit.probeWithoutCodes()
        } catch {
            unreachable(error, .tokenEndpoint, context, also: partnerScope == nil ? [] : [.partnerScope])
        }
        return nil
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
    private let continuation: NIOLockedValueBox<CheckedContinuation<Bool, Never>?>

    init(_ continuation: CheckedContinuation<Bool, Never>) {
        self.continuation = NIOLockedValueBox(continuation)
    }

    func resume(_ value: Bool) {
        continuation.withLockedValue { $0.take() }?.resume(returning: value)
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
