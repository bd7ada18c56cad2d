import AppFlipAudit
import AppFlipCLI
import AppFlipConfiguration
import AppFlipCore
import AppFlipHTTPClient
import AppFlipOAuth
import AppFlipServer
import ArgumentParser
import AsyncHTTPClient
import FoundationEssentials
import NIOCore
import NIOPosix

/// `appflip-bench --audit`: the whole audit of the reference (the built-in partner handler and the embedded
/// server, every target: the partner app, the authorization endpoint with the user's session, the token
/// endpoint with its resource and revocation endpoint, the configuration's second client and the sign-out of a
/// second session of the user's, the association file), in this process, in alternating
/// runs straight to the server and through a `BenchLatencyProxy` that makes every exchange `--audit-delay-ms`
/// longer, as a partner's servers off loopback do. The figure is the ratio of the two, and the number of
/// delays on the audit's critical path it implies; each run must pass every check, or the bench fails.
struct BenchAudit: ParsableArguments {
    @Flag(help: "Measure a full audit of the reference, straight and through a proxy that delays every exchange; in this process.")
    var audit = false

    @Option(name: .customLong("audit-delay-ms"), help: "With --audit: what the proxy adds to every exchange, in milliseconds.")
    var delayMilliseconds = 50

    @Option(name: .customLong("audit-runs"), help: "With --audit: runs of each kind, alternating.")
    var runs = 3

    @Option(
        name: .customLong("audit-oauth-config"),
        help: "With --audit: the embedded server's configuration; its first client and first enabled user."
    )
    var oauthConfig = "Config/oauth.json"

    /// The reference partner's link and app id.
    static let link = "https://partner.bench/link/flip"
    static let appID = "BENCH.partner"

    struct Report: Codable {
        var delayMilliseconds: Int
        var directSeconds: [Double]
        var proxiedSeconds: [Double]
        /// Median proxied over median direct.
        var ratio: Double
        /// (median proxied − median direct) / delay: the exchanges the audit waits for one after another.
        var sequentialExchanges: Double
    }

    /// The name of the figure `Benchmarks/Thresholds/audit.json` holds.
    static let sequentialExchangesFigure = "exchanges on the critical path"

    func run(threads: Int, json: Bool, thresholds: BenchThresholdOptions) async throws {
        guard runs > 0, delayMilliseconds >= 0 else { throw ValidationError("--audit-runs must be positive and --audit-delay-ms not negative") }
        let group = MultiThreadedEventLoopGroup(numberOfThreads: threads)
        let directory = try BenchCommand.makeDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let reference = try Reference(oauthConfig: oauthConfig, directory: directory)
        let report = try await BenchInProcessDaemon.run(
            directory: directory,
            apps: ["partner.json": reference.appFile],
            oauth: reference.oauth,
            group: group
        ) { socket, composition in
            try await measure(reference, socket: socket, server: composition.oauthServer!, group: group)
        }
        try? await group.shutdownGracefully()
        if json { try OutputJSON.print(report) } else { print(report) }
        try thresholds.check([Self.sequentialExchangesFigure: report.sequentialExchanges], mode: "audit", json: json)
    }

    /// The reference partner: the embedded server's first client and first enabled user, its app file with the
    /// built-in `appflip` handler, and its association file; the configuration's second client, if any, is the
    /// audit's second client.
    struct Reference {
        var oauth: OAuthServerConfiguration
        var client: RegisteredClient
        var secondClient: RegisteredClient?
        var user: String
        var aasa: String
        var appFile: String

        init(oauthConfig: String, directory: String) throws {
            do {
                oauth = try OAuthServerConfiguration.load(from: oauthConfig)
            } catch {
                throw ValidationError("--audit needs the embedded server's configuration (--audit-oauth-config): \(error)")
            }
            oauth.port = 0
            guard let client = oauth.clients.first, let user = oauth.users.first(where: { !$0.disabled }) else {
                throw ValidationError("\(oauthConfig) needs a client and an enabled user")
            }
            self.client = client
            secondClient = oauth.clients.dropFirst().first
            self.user = user.username
            aasa = directory + "/partner.apple-app-site-association"
            let association = #"{"applinks":{"details":[{"appIDs":["\#(BenchAudit.appID)"],"components":[{"/":"/link/*"}]}]}}"#
            try Data(association.utf8).write(to: URL(filePath: aasa))
            let handler: JSONValue = .object([
                "clientIDs": .array([.string(client.id)]),
                "authorization": .object(["embedded": .object(["user": .string(user.username)])]),
                "outcome": .string("approve"),
                "timeoutSeconds": .number(30),
            ])
            appFile =
                JSONValue.object([
                    "appID": .string(BenchAudit.appID),
                    "domains": .array([.string("applinks:partner.bench")]),
                    "association": try JSONValue(parsing: Array(association.utf8)),
                    "handler": .object(["appflip": handler]),
                ]).compactJSON
        }
    }

    /// `--audit-runs` audits of each kind, alternating: straight to the server, then through the proxy.
    private func measure(
        _ reference: Reference,
        socket: String,
        server: EmbeddedAuthorizationServer,
        group: any EventLoopGroup
    ) async throws -> Report {
        let port = try await server.listeningPort()
        let proxy = try await BenchLatencyProxy.start(forwardingTo: port, delay: .milliseconds(Int64(delayMilliseconds)), group: group)
        let httpClient = HTTPClient(eventLoopGroup: group, configuration: .appFlipOAuth())
        var seconds: (direct: [Double], proxied: [Double]) = ([], [])
        do {
            for _ in 0..<runs {
                seconds.direct.append(try await audit(reference, at: port, socket: socket, server: server, httpClient: httpClient))
                seconds.proxied.append(try await audit(reference, at: proxy.port, socket: socket, server: server, httpClient: httpClient))
            }
        } catch {
            try? await httpClient.shutdown()
            try? await proxy.stop()
            throw error
        }
        try await httpClient.shutdown()
        try await proxy.stop()
        return Report(
            delayMilliseconds: delayMilliseconds,
            directSeconds: seconds.direct,
            proxiedSeconds: seconds.proxied,
            ratio: Self.median(seconds.proxied) / Self.median(seconds.direct),
            sequentialExchanges: delayMilliseconds == 0
                ? 0 : (Self.median(seconds.proxied) - Self.median(seconds.direct)) / (Double(delayMilliseconds) / 1000)
        )
    }

    /// One whole audit of the reference with its HTTP endpoints at `port`, in seconds; every check must pass.
    private func audit(
        _ reference: Reference,
        at port: Int,
        socket: String,
        server: EmbeddedAuthorizationServer,
        httpClient: HTTPClient
    ) async throws -> Double {
        let base = "http://127.0.0.1:\(port)"
        let client = reference.client
        var auditor = Auditor(
            partner: (PartnerAppTarget(link: try RawURL(Self.link), clientID: client.id, scopes: client.scopes), socket),
            authorization: AuthorizationEndpointTarget(
                url: base + "/authorize",
                clientID: client.id,
                scopes: client.scopes,
                credential: server.sessionCredential(for: reference.user)
            ),
            token: TokenEndpointTarget(
                url: base + "/token",
                clientID: client.id,
                clientSecret: client.secret,
                resourceURL: base + "/userinfo",
                revokeURL: base + "/revoke"
            ),
            association: AssociationTarget(source: .file(path: reference.aasa), appID: Self.appID, link: try RawURL(Self.link))
        )
        auditor.authorization?.signOut = .init(url: base + "/signout", session: server.newSessionCredential(for: reference.user))
        auditor.token?.secondClient = reference.secondClient.map { .init(id: $0.id, secret: $0.secret) }
        let start = ContinuousClock.now
        let result = await auditor.run(httpClient: httpClient)
        let seconds = (ContinuousClock.now - start).seconds
        guard result.exitStatus == 0 else {
            let findings = result.results.filter { $0.outcome != .pass && $0.outcome != .skipped }
            throw ValidationError(
                "the reference's audit did not pass: \(findings.map { "\($0.check.id) \($0.outcome.rawValue): \($0.reason)" })"
            )
        }
        return seconds
    }

    private func print(_ report: Report) {
        let format = { (values: [Double]) in values.map { "\(Self.rounded($0, 2)) s" }.joined(separator: ", ") }
        Swift.print("audit of the reference, every target, \(runs) runs each, alternating")
        Swift.print("  straight to the server:            \(format(report.directSeconds))")
        Swift.print("  through a \(delayMilliseconds) ms-per-exchange proxy: \(format(report.proxiedSeconds))")
        Swift.print(
            "  proxied/straight (medians): \(Self.rounded(report.ratio, 1))×; \(Self.rounded(report.sequentialExchanges, 1)) \(Self.sequentialExchangesFigure) (\(delayMilliseconds) ms each)"
        )
        // The goals of an audit without --slow (docs/audit.md): 3 s on loopback, 10 s through the 50 ms proxy.
        for (name, values, goal) in [("straight", report.directSeconds, 3.0), ("proxied", report.proxiedSeconds, 10.0)] {
            Swift.print("  \(name) median against its \(Int(goal)) s goal: \(Self.rounded(Self.median(values) / goal, 2))×")
        }
    }
}

extension BenchAudit {
    /// The middle of `values` (the upper one of an even count): the figure both the report and the goals use.
    fileprivate static func median(_ values: [Double]) -> Double {
        values.sorted()[values.count / 2]
    }

    /// `value` with `digits` decimals, for the text report.
    fileprivate static func rounded(_ value: Double, _ digits: Int) -> Double {
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        return (value * scale).rounded() / scale
    }
}

extension Duration {
    /// The duration in seconds, as a `Double`.
    fileprivate var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
