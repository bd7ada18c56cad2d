import AppFlipClient
public import AppFlipCore
import AppFlipGoogle
public import AppFlipHTTPClient
public import AsyncHTTPClient
import Synchronization

/// One `appflip audit`: every check that applies to the targets given, the others skipped with why, in
/// one ``AuditReport``. Codes for the token endpoint come from the partner app when it yields them, else
/// from the authorization endpoint.
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
    /// With a `timeout`, returns by then even if a check is still waiting (it is cancelled, not waited for:
    /// a reply from appflipd cannot be interrupted).
    public func run(httpClient: HTTPClient) async -> AuditReport {
        let progress = AuditProgress()
        guard let timeout else {
            await run(httpClient: httpClient, into: progress)
            return progress.report(stoppedAfter: nil, targets: [])
        }
        let work = Task { await self.run(httpClient: httpClient, into: progress) }
        if await Self.finishes(work, within: timeout) {
            return progress.report(stoppedAfter: nil, targets: [])
        }
        work.cancel()
        var targets: [AuditTarget] = []
        if partner != nil { targets.append(.partnerApp) }
        if authorization != nil { targets.append(.authorizationEndpoint) }
        if token != nil { targets.append(.tokenEndpoint) }
        if association != nil { targets.append(.associationFile) }
        if assetLinks != nil { targets.append(.androidAssociationFile) }
        if android != nil { targets.append(.androidApp) }
        return progress.report(stoppedAfter: timeout, targets: targets)
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

    private func run(httpClient: HTTPClient, into progress: AuditProgress) async {
        var results: [AuditResult] = []
        var unreachable: [String] = []
        // Each target's results reach `progress` as soon as they are known, so that a whole-run timeout keeps them.
        defer { progress.add(results, unreachable: unreachable) }
        func skip(_ target: AuditTarget, _ reason: String) {
            results += AuditCheck.allCases.filter { $0.target == target }.map { AuditResult($0, .skipped, reason) }
        }
        func flush() {
            progress.add(results, unreachable: unreachable)
            results = []
            unreachable = []
        }

        if let association {
            do {
                results += try await association.run()
            } catch {
                unreachable.append("\(error)")
                skip(.associationFile, "\(error)")
            }
            flush()
        }

        if let assetLinks {
            do {
                results += try await assetLinks.run()
            } catch {
                unreachable.append("\(error)")
                skip(.androidAssociationFile, "\(error)")
            }
            flush()
        }

        // Codes for the token checks come from whichever source yields them: the partner app, else the
        // authorization endpoint. A source whose precondition failed says why once, in its own finding.
        var authorizationCodes: AuthorizationEndpointAudit?
        var authorizationCause: String?
        var authorizationBrokeARule = false
        if let authorization {
            var audit = AuthorizationEndpointAudit(target: authorization, redirectURI: redirectURI, httpClient: httpClient, bounds: bounds)
            audit.concurrency = concurrency
            do {
                let found = try await audit.run()
                results += found
                let preconditions = found.filter { $0.check == .authorizeSignIn || $0.check == .authorizeCode }
                if let unmet = preconditions.first(where: { $0.outcome != .pass }) {
                    authorizationCause = "\(unmet.check.rawValue): \(unmet.reason)"
                    authorizationBrokeARule = unmet.outcome == .fail
                } else {
                    authorizationCodes = audit
                }
            } catch {
                unreachable.append("\(error)")
                skip(.authorizationEndpoint, "\(error)")
            }
            flush()
        }

        var partnerCodes: PartnerAppAudit?
        var connection: AppFlipConnection?
        if let partner {
            do {
                let opened = try await Self.connect(partner.socketPath)
                connection = opened
                let google = try await Self.registerGoogle(on: opened)
                var audit = PartnerAppAudit(target: partner.target, redirectURI: redirectURI, connection: opened, google: google)
                audit.authorizationCause = authorizationCause
                audit.authorizationBrokeARule = authorizationBrokeARule
                let found = try await audit.run()
                results += found
                if found.contains(where: { $0.check == .partnerCode && $0.outcome == .pass }) { partnerCodes = audit }
                // `partner.scope` exchanges the app's codes, so it runs with the token checks, or is skipped here.
                if partnerCodes == nil {
                    results.append(AuditResult(.partnerScope, .skipped, "needs partner.code"))
                } else if token == nil {
                    results.append(
                        AuditResult(.partnerScope, .skipped, "needs the token endpoint (--token-url or --oauth-config), to exchange the app's codes")
                    )
                }
            } catch {
                unreachable.append("\(error)")
                skip(.partnerApp, "\(error)")
            }
            flush()
        }

        if let token {
            var codeSource: (any AuditCodeSource)? = authorizationCodes
            if let partnerCodes { codeSource = partnerCodes }
            let partnerScope = partnerCodes.map { app in
                TokenEndpointAudit.PartnerScopeSources(app: app, control: authorizationCodes, scopes: partner?.target.scopes ?? [])
            }
            if let codeSource {
                do {
                    results += try await TokenEndpointAudit(target: token, redirectURI: redirectURI, httpClient: httpClient, bounds: bounds)
                        .run(codes: codeSource, partnerScope: partnerScope)
                } catch {
                    unreachable.append("\(error)")
                    skip(.tokenEndpoint, "\(error)")
                    if partnerScope != nil { results.append(AuditResult(.partnerScope, .skipped, "\(error)")) }
                }
            } else if partner == nil && authorization == nil {
                skip(.tokenEndpoint, "no code to exchange: give the partner app (--link, --client-id) or --authorize-url")
            } else {
                var sources: [String] = []
                if partner != nil { sources.append("partner.code") }
                if authorization != nil { sources.append("authorize.code") }
                let reason = "no code to exchange: no source yields one (\(sources.joined(separator: ", ")))"
                do {
                    results += try await TokenEndpointAudit(target: token, redirectURI: redirectURI, httpClient: httpClient, bounds: bounds)
                        .runWithoutCodes(reason)
                } catch {
                    unreachable.append("\(error)")
                    skip(.tokenEndpoint, "\(error)")
                }
            }
        }
        await connection?.close()
        flush()

        if let android {
            do {
                results += try await AndroidAppAudit(
                    target: android.target,
                    socketPath: android.socketPath,
                    token: token,
                    httpClient: httpClient,
                    bounds: bounds
                ).run()
            } catch {
                unreachable.append("\(error)")
                skip(.androidApp, "\(error)")
            }
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

/// The results of a run so far. A run stopped by its timeout is reported from here, and what its cancelled
/// checks add afterwards is dropped.
private final class AuditProgress: Sendable {
    private let state = Mutex<(results: [AuditResult], unreachable: [String], closed: Bool)>(([], [], false))

    func add(_ results: [AuditResult], unreachable: [String]) {
        state.withLock { state in
            guard !state.closed else { return }
            state.results += results
            state.unreachable += unreachable
        }
    }

    /// The report; after `stoppedAfter`, each check of `targets` without a result is skipped and the run unfinished.
    func report(stoppedAfter timeout: Duration?, targets: [AuditTarget]) -> AuditReport {
        state.withLock { state in
            state.closed = true
            guard let timeout else { return AuditReport(results: state.results, unreachable: state.unreachable) }
            let done = Set(state.results.map(\.check))
            let reason = "the audit's whole-run timeout (--timeout, \(timeout)) ran out before this check finished"
            let stopped = AuditCheck.allCases.filter { targets.contains($0.target) && !done.contains($0) }
                .map { AuditResult($0, .skipped, reason) }
            let unfinished = "the audit did not finish within its whole-run timeout (--timeout, \(timeout)); the checks it did not finish are skipped"
            return AuditReport(results: state.results + stopped, unreachable: state.unreachable + [unfinished])
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

/// Where the token-endpoint checks get their fresh authorization codes: the partner app through appflipd
/// (a flip per code), or the authorization endpoint over HTTP. Each code is used by one check only.
public protocol AuditCodeSource: Sendable {
    /// A code issued for `redirectURI`, never used before; throws when none could be had, with why.
    func freshCode(redirectURI: AppFlipRedirectURI) async throws -> String
}

/// A code source that asks for the scopes it is given: the partner app through its flip link, and the
/// authorization endpoint directly, which `partner.scope` holds the app's codes against.
public protocol ScopedCodeSource: AuditCodeSource {
    /// A code for `scopes` (sent space-separated, as Google sends them) issued for `redirectURI`, never used before.
    func freshCode(redirectURI: AppFlipRedirectURI, scopes: [String]) async throws -> String
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
