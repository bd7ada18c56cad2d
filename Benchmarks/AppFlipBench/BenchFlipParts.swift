import AppFlipCLI
import AppFlipClient
import AppFlipConfiguration
import AppFlipCore
import AppFlipDaemon
import AppFlipGoogle
import AppFlipHTTPClient
import AppFlipOAuth
import AppFlipServer
import ArgumentParser
import AsyncHTTPClient
import FoundationEssentials
import Logging
import NIOCore
import NIOPosix

/// `appflip-bench --flip-parts`: a full App Flip against its parts, each measured alone, in alternating
/// rounds of one run in this process, so that the whole can be held to the sum of its parts:
///
/// - `hops`: the flip's socket hops and handler work without /authorize: the same `appflip` handler with
///   the scripted outcome `cancel`, which opens `error=cancelled` on the redirect URI at once;
/// - `authorize`: the handler's step-3 call alone, `AuthorizationEndpoint` against the embedded server with
///   the user's session, on the composition's own HTTP client;
/// - `token`: Google's exchange at /token alone, for codes minted before the round's clock starts;
/// - `flip`: the whole flip as `appflip-bench --flip` plays it (checked, its code exchanged, no refresh).
struct BenchFlipParts {
    var options: BenchFlipOptions
    var concurrencies: [Int]
    var rounds: Int
    var threads: Int
    var json: Bool

    /// The parts, in the order they take turns; `flip` is the whole.
    enum Part: String, CaseIterable, Codable {
        case hops, authorize, token, flip
    }

    struct Row: Codable {
        var part: Part
        var connections: Int
        var operations: Int
        var failures: Int
        var perSecond: Double
        var p50Millis: Double
        var p99Millis: Double
    }

    struct Report: Codable {
        var rows: [Row]
        /// Per connection count: the whole flip's p50 over the sum of the parts' p50s, and its time per flip
        /// (1 / flips per second) over the sum of the parts' times per operation.
        var ratios: [String: Double]
    }

    func run(thresholds: BenchThresholdOptions) async throws {
        guard rounds > 0, options.flips >= rounds else { throw ValidationError("--rounds must be positive and at most --flips") }
        let setup = try Setup(options: options)
        let group = MultiThreadedEventLoopGroup(numberOfThreads: threads)
        let directory = try BenchCommand.makeDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let report = try await BenchInProcessDaemon.run(
            directory: directory,
            apps: ["flip.json": setup.app(.flip, outcome: "approve"), "hops.json": setup.app(.hops, outcome: "cancel")],
            oauth: setup.oauth,
            group: group
        ) { socket, composition in
            var configuration = HTTPClient.Configuration.appFlipOAuth()
            configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = max(8, concurrencies.max() ?? 8)
            // Google's side has an HTTP client of its own, as in `--flip`.
            let googleHTTP = HTTPClient(eventLoopGroup: group, configuration: configuration)
            do {
                let parts = try await Parts(setup, socket: socket, composition: composition, googleHTTP: googleHTTP)
                let report = try await measure(parts, group: group)
                try await googleHTTP.shutdown()
                return report
            } catch {
                try? await googleHTTP.shutdown()
                throw error
            }
        }
        try? await group.shutdownGracefully()
        if json { try OutputJSON.print(report) } else { Self.print(report) }
        if report.rows.contains(where: { $0.failures > 0 }) { throw ExitCode(1) }
        try thresholds.check(report.ratios, mode: "flip-parts", json: json)
    }

    private static let noLogs = Logger(label: "bench", factory: { _ in SwiftLogNoOpLogHandler() })

    /// What `--flip-oauth-config` and `--flip-client-id` name: the embedded server's configuration on an
    /// ephemeral port, the client, its first enabled user, Google's production redirect URI for the Google
    /// Home app, and the scope asked for.
    struct Setup {
        var oauth: OAuthServerConfiguration
        var client: RegisteredClient
        var user: String
        var redirect: AppFlipRedirectURI
        var scopes: [String]

        init(options: BenchFlipOptions) throws {
            let file = options.oauthConfig ?? TokenEndpoint.defaultOAuthConfiguration
            do {
                oauth = try OAuthServerConfiguration.load(from: file)
            } catch {
                throw ValidationError("--flip-parts needs the embedded server's configuration (--flip-oauth-config): \(error)")
            }
            oauth.port = 0
            guard let client = oauth.clients.first(where: { $0.id == options.clientID }) else {
                throw ValidationError("\(file) has no client \(options.clientID) (--flip-client-id)")
            }
            guard let user = oauth.users.first(where: { !$0.disabled }) else { throw ValidationError("\(file) has no enabled user") }
            redirect = AppFlipRedirectURI.all.first { $0.bundleID == "com.google.OPA" && $0.environment == .production }!
            guard client.redirectURIs.contains(redirect.string) else {
                throw ValidationError("\(file): client \(client.id) does not register \(redirect.string)")
            }
            self.client = client
            self.user = user.username
            scopes = Array(client.scopes.prefix(1))
        }

        /// The app file of one part's partner app, written as JSON.
        func app(_ part: Part, outcome: String) -> String {
            let appID = JSONValue.string("BENCH.\(part)")
            let everything: JSONValue = .object(["appIDs": .array([appID]), "components": .array([.object(["/": .string("*")])])])
            let handler: JSONValue = .object([
                "clientIDs": .array([.string(client.id)]),
                "authorization": .object(["embedded": .object(["user": .string(user)])]),
                "outcome": .string(outcome),
                "timeoutSeconds": .number(30),
            ])
            return JSONValue.object([
                "appID": appID,
                "domains": .array([.string("applinks:\(part).bench")]),
                "association": .object(["applinks": .object(["details": .array([everything])])]),
                "handler": .object(["appflip": handler]),
            ]).compactJSON
        }
    }

    /// Everything one operation of each part needs, on the in-process daemon.
    struct Parts {
        var socket: String
        var authorize: AuthorizationEndpoint
        var exchanger: TokenEndpointClient
        var request: AuthorizationRequest
        var redirect: AppFlipRedirectURI
        var googleHTTP: HTTPClient

        init(_ setup: Setup, socket: String, composition: DaemonComposition, googleHTTP: HTTPClient) async throws {
            let server = composition.oauthServer!
            self.socket = socket
            authorize = try await server.authorizationEndpoint(signedInAs: setup.user, httpClient: composition.httpClient, logger: noLogs)
            exchanger = TokenEndpointClient(
                tokenURL: try await server.baseURL() + "/token",
                clientID: setup.client.id,
                clientSecret: setup.client.secret,
                httpClient: googleHTTP,
                logger: noLogs
            )
            request = AuthorizationRequest(clientID: setup.client.id, redirectURI: setup.redirect.string, scopes: setup.scopes)
            redirect = setup.redirect
            self.googleHTTP = googleHTTP
        }

        /// The flip `--flip` plays, to `part`'s partner app, with its code exchanged or not.
        func flip(_ part: Part, exchange: Bool) -> FlipRunner {
            FlipRunner(
                partnerLink: try! RawURL("https://\(part).bench/link"),
                clientID: request.clientID,
                scopes: request.scopes,
                state: "",
                redirectURI: redirect,
                tokenEndpoint: exchange ? TokenEndpoint(url: exchanger.tokenURL, clientSecret: exchanger.clientSecret) : nil,
                refreshes: false,
                timeout: .seconds(30)
            )
        }
    }

    private func measure(_ parts: Parts, group: any EventLoopGroup) async throws -> Report {
        let googleConnection = try await AppFlipConnection.connect(to: parts.socket, client: "bench-google", eventLoopGroup: group)
        let google = try await GoogleApp.register(on: googleConnection, bundleID: parts.redirect.bundleID)
        var rows: [Row] = []
        var ratios: [String: Double] = [:]
        for concurrency in concurrencies {
            let connections = try await withThrowingTaskGroup(of: AppFlipConnection.self) { tasks in
                for _ in 0..<concurrency {
                    tasks.addTask { try await AppFlipConnection.connect(to: parts.socket, client: "bench-flip", eventLoopGroup: group) }
                }
                return try await tasks.reduce(into: []) { $0.append($1) }
            }
            let measured = await measure(parts, google: google, connections: connections)
            for connection in connections { await connection.close() }
            rows += measured
            ratios.merge(Self.ratios(measured, concurrency: concurrency)) { $1 }
        }
        await googleConnection.close()
        return Report(rows: rows, ratios: ratios)
    }

    /// Every part at `connections.count` operations in flight, after a warm-up; the parts take turns, so that
    /// a load change on the shared machine hits them all alike.
    private func measure(_ parts: Parts, google: GoogleApp, connections: [AppFlipConnection]) async -> [Row] {
        let round = Round(parts: parts, google: google, workers: Array(connections.enumerated()), runID: Int(WallClock.now()))
        for part in Part.allCases { _ = await round.run(part, total: min(100, options.flips)) }
        var merged = Array(repeating: BenchFigures(), count: Part.allCases.count)
        for _ in 0..<rounds {
            for (index, part) in Part.allCases.enumerated() { merged[index].merge(await round.run(part, total: options.flips / rounds)) }
        }
        return zip(Part.allCases, merged).map { part, figures in
            if !json {
                FileHandleOutputStream.progress(
                    "\(part) × \(connections.count): \(Int(figures.perSecond))/s, p50 \(BenchFlip.format(figures.percentile(0.5))) ms"
                )
            }
            return Row(
                part: part,
                connections: connections.count,
                operations: figures.operations,
                failures: figures.failures,
                perSecond: figures.perSecond,
                p50Millis: figures.percentile(0.5),
                p99Millis: figures.percentile(0.99)
            )
        }
    }

    /// One round of one part: `total` operations over the workers' connections, each checked.
    struct Round {
        var parts: Parts
        var google: GoogleApp
        var workers: [(offset: Int, element: AppFlipConnection)]
        /// Makes every flip's state unique across runs.
        var runID: Int

        func run(_ part: Part, total: Int) async -> BenchFigures {
            switch part {
            case .hops, .flip:
                let flip = parts.flip(part, exchange: part == .flip)
                return await BenchClosedLoop.run(workers: workers, total: total) { worker, index in
                    var flip = flip
                    flip.state = "\(part)-\(runID)-\(worker.offset)-\(index)"
                    let report = await flip.run(connection: worker.element, google: google, events: nil, httpClient: parts.googleHTTP, logger: noLogs)
                    return part == .flip ? report.exitStatus == 0 : report.result == FlipErrorCode.cancelled.rawValue && report.violations.isEmpty
                }
            case .authorize:
                return await BenchClosedLoop.run(workers: workers, total: total) { _, _ in
                    (try? await parts.authorize.authorizationCode(for: parts.request)) != nil
                }
            case .token:
                // The codes are minted before the clock starts: only their exchange is measured.
                let minted = await BenchFlipParts.mint(total, concurrency: workers.count, authorize: parts.authorize, request: parts.request)
                return await BenchClosedLoop.run(workers: workers, total: total) { _, index in
                    guard index < minted.count else { return false }
                    return (try? await parts.exchanger.exchange(code: minted[index], redirectURI: parts.request.redirectURI)) != nil
                }
            }
        }
    }

    /// The whole flip's p50 over the sum of the parts' p50s, and its time per flip over the sum of the parts'
    /// times per operation, at `concurrency`.
    static func ratios(_ rows: [Row], concurrency: Int) -> [String: Double] {
        let parts = rows.filter { $0.part != .flip }
        guard let flip = rows.first(where: { $0.part == .flip }), parts.allSatisfy({ $0.perSecond > 0 }), flip.perSecond > 0 else { return [:] }
        return [
            "flip p50 / sum of the parts' p50 @\(concurrency)": flip.p50Millis / parts.reduce(0) { $0 + $1.p50Millis },
            "flip time per flip / sum of the parts' times per operation @\(concurrency)":
                (1 / flip.perSecond) / parts.reduce(0) { $0 + 1 / $1.perSecond },
        ]
    }

    /// `count` fresh codes from /authorize, `concurrency` at a time.
    static func mint(_ count: Int, concurrency: Int, authorize: AuthorizationEndpoint, request: AuthorizationRequest) async -> [String] {
        await withTaskGroup(of: [String].self) { group in
            for worker in 0..<concurrency {
                group.addTask {
                    var codes: [String] = []
                    for _ in stride(from: worker, to: count, by: concurrency) {
                        if let code = try? await authorize.authorizationCode(for: request) { codes.append(code) }
                    }
                    return codes
                }
            }
            return await group.reduce(into: []) { $0 += $1 }
        }
    }

    private static func print(_ report: Report) {
        Swift.print("flip parts    conns    ops  fail      ops/s   p50 ms   p99 ms")
        for row in report.rows {
            Swift.print(
                row.part.rawValue.rightPadded(12),
                String(row.connections).leftPadded(6),
                String(row.operations).leftPadded(6),
                String(row.failures).leftPadded(5),
                String(Int(row.perSecond)).leftPadded(10),
                BenchFlip.format(row.p50Millis).leftPadded(8),
                BenchFlip.format(row.p99Millis).leftPadded(8)
            )
        }
        for (name, value) in report.ratios.sorted(by: { $0.key < $1.key }) {
            Swift.print("\(name): \(BenchFlip.format(value))")
        }
    }
}
