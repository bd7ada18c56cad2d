import AppFlipClient
public import AppFlipCore
import AppFlipGoogle
public import AsyncHTTPClient

/// One `appflip audit`: every check that applies to the targets given, the others skipped with why, in
/// one ``AuditReport``. Codes for the token endpoint come from the partner app when it is given, else
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
    /// The redirect URI the single-URI checks use (the state battery, the lookalikes, the token checks);
    /// by default the Google Assistant's production one.
    public var redirectURI: AppFlipRedirectURI

    /// An audit of the targets given; at least one should be.
    public init(
        partner: (target: PartnerAppTarget, socketPath: String)? = nil,
        authorization: AuthorizationEndpointTarget? = nil,
        token: TokenEndpointTarget? = nil,
        association: AssociationTarget? = nil,
        redirectURI: AppFlipRedirectURI = AppFlipRedirectURI(app: .assistant, variant: .production, environment: .production)
    ) {
        self.partner = partner
        self.authorization = authorization
        self.token = token
        self.association = association
        self.redirectURI = redirectURI
    }

    /// Runs the audit; `httpClient` must not follow redirects (`HTTPClient.Configuration.appFlipOAuth()`).
    public func run(httpClient: HTTPClient) async -> AuditReport {
        var results: [AuditResult] = []
        var unreachable: [String] = []
        func skip(_ target: AuditTarget, _ reason: String) {
            results += AuditCheck.allCases.filter { $0.target == target }.map { AuditResult($0, .skipped, reason) }
        }

        if let association {
            do {
                results += try await association.run()
            } catch {
                unreachable.append("\(error)")
                skip(.associationFile, "\(error)")
            }
        }

        var codeSource: (any AuditCodeSource)?
        if let authorization {
            let audit = AuthorizationEndpointAudit(target: authorization, redirectURI: redirectURI, httpClient: httpClient)
            do {
                results += try await audit.run()
                codeSource = audit
            } catch {
                unreachable.append("\(error)")
                skip(.authorizationEndpoint, "\(error)")
            }
        }

        var connection: AppFlipConnection?
        if let partner {
            do {
                let opened = try await Self.connect(partner.socketPath)
                connection = opened
                let google = try await Self.registerGoogle(on: opened)
                let audit = PartnerAppAudit(target: partner.target, redirectURI: redirectURI, connection: opened, google: google)
                results += try await audit.run()
                // A partner that does not route the link yields no code; the authorization endpoint may.
                if results.contains(where: { $0.check == .partnerRoute && $0.outcome == .pass }) { codeSource = audit }
            } catch {
                unreachable.append("\(error)")
                skip(.partnerApp, "\(error)")
            }
        }

        if let token {
            if let codeSource {
                do {
                    results += try await TokenEndpointAudit(target: token, redirectURI: redirectURI, httpClient: httpClient).run(codes: codeSource)
                } catch {
                    unreachable.append("\(error)")
                    skip(.tokenEndpoint, "\(error)")
                }
            } else {
                skip(.tokenEndpoint, "no code to exchange: give the partner app (--link, --client-id) or --authorize-url")
            }
        }
        await connection?.close()
        return AuditReport(results: results, unreachable: unreachable)
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

/// Where the token-endpoint checks get their fresh authorization codes: the partner app through appflipd
/// (a flip per code), or the authorization endpoint over HTTP. Each code is used by one check only.
public protocol AuditCodeSource: Sendable {
    /// A code issued for `redirectURI`, never used before; throws when none could be had, with why.
    func freshCode(redirectURI: AppFlipRedirectURI) async throws -> String
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
