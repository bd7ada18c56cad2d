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

    func run() async throws {
        guard rounds > 0, options.flips >= rounds else { throw ValidationError("--rounds must be positive and at most --flips") }
        let file = options.oauthConfig ?? TokenEndpoint.defaultOAuthConfiguration
        var oauth: OAuthServerConfiguration
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
        let redirect = AppFlipRedirectURI.all.first { $0.bundleID == "com.google.OPA" && $0.environment == .production }!
        guard client.redirectURIs.contains(redirect.string) else {
            throw ValidationError("\(file): client \(client.id) does not register \(redirect.string)")
        }
        let scopes = Array(client.scopes.prefix(1))

        /// The app file of one part's partner app, written as JSON (the client id and user come from the file).
        func app(_ part: Part, outcome: String) -> String {
            let appID = JSONValue.string("BENCH.\(part)")
            let everything: JSONValue = .object(["appIDs": .array([appID]), "components": .array([.object(["/": .string("*")])])])
            let handler: JSONValue = .object([
                "clientIDs": .array([.string(client.id)]),
                "authorization": .object(["embedded": .object(["user": .string(user.username)])]),
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
        let group = MultiThreadedEventLoopGroup(numberOfThreads: threads)
        let directory = try BenchCommand.makeDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let report = try await BenchInProcessDaemon.run(
            directory: directory,
            apps: ["flip.json": app(.flip, outcome: "approve"), "hops.json": app(.hops, outcome: "cancel")],
            oauth: oauth,
            group: group
        ) { socket, composition in
            let server = composition.oauthServer!
            var configuration = HTTPClient.Configuration.appFlipOAuth()
            configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = max(8, concurrencies.max() ?? 8)
            // Google's side has an HTTP client of its own, as in `--flip`.
            let googleHTTP = HTTPClient(eventLoopGroup: group, configuration: configuration)
            do {
                let report = try await measure(
                    socket: socket,
                    authorize: try await server.authorizationEndpoint(
                        signedInAs: user.username,
                        httpClient: composition.httpClient,
                        logger: Self.noLogs
                    ),
                    exchanger: TokenEndpointClient(
                        tokenURL: try await server.baseURL() + "/token",
                        clientID: client.id,
                        clientSecret: client.secret,
                        httpClient: googleHTTP,
                        logger: Self.noLogs
                    ),
                    request: AuthorizationRequest(clientID: client.id, redirectURI: redirect.string, scopes: scopes),
                    redirect: redirect,
                    googleHTTP: googleHTTP,
                    group: group
                )
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
    }

    private static let noLogs = Logger(label: "bench", factory: { _ in SwiftLogNoOpLogHandler() })

    private func measure(
        socket: String,
        authorize: AuthorizationEndpoint,
        exchanger: TokenEndpointClient,
        request: AuthorizationRequest,
        redirect: AppFlipRedirectURI,
        googleHTTP: HTTPClient,
        group: any EventLoopGroup
    ) async throws -> Report {
        let googleConnection = try await AppFlipConnection.connect(to: socket, client: "bench-google", eventLoopGroup: group)
        let google = try await GoogleApp.register(on: googleConnection, bundleID: redirect.bundleID)
        func runner(_ host: String, exchange: Bool) -> FlipRunner {
            FlipRunner(
                partnerLink: try! RawURL("https://\(host).bench/link"),
                clientID: request.clientID,
                scopes: request.scopes,
                state: "",
                redirectURI: redirect,
                tokenEndpoint: exchange ? TokenEndpoint(url: exchanger.tokenURL, clientSecret: exchanger.clientSecret) : nil,
                refreshes: false,
                timeout: .seconds(30)
            )
        }
        let hops = runner(Part.hops.rawValue, exchange: false)
        let whole = runner(Part.flip.rawValue, exchange: true)
        let run = Int(WallClock.now())

        /// One round of `part` at `concurrency`, `total` operations.
        func round(_ part: Part, concurrency: Int, total: Int, connections: [AppFlipConnection]) async -> BenchFigures {
            let workers = Array(connections.enumerated())
            switch part {
            case .hops, .flip:
                let flip = part == .hops ? hops : whole
                return await BenchClosedLoop.run(workers: workers, total: total) { worker, index in
                    var flip = flip
                    flip.state = "\(part)-\(run)-\(worker.offset)-\(index)"
                    let report = await flip.run(connection: worker.element, google: google, events: nil, httpClient: googleHTTP, logger: Self.noLogs)
                    return part == .flip ? report.exitStatus == 0 : report.result == FlipErrorCode.cancelled.rawValue && report.violations.isEmpty
                }
            case .authorize:
                return await BenchClosedLoop.run(workers: workers, total: total) { _, _ in
                    (try? await authorize.authorizationCode(for: request)) != nil
                }
            case .token:
                // The codes are minted before the clock starts: only their exchange is measured.
                let minted = await Self.mint(total, concurrency: concurrency, authorize: authorize, request: request)
                return await BenchClosedLoop.run(workers: workers, total: total) { _, index in
                    guard index < minted.count else { return false }
                    return (try? await exchanger.exchange(code: minted[index], redirectURI: request.redirectURI)) != nil
                }
            }
        }

        var rows: [Row] = []
        var ratios: [String: Double] = [:]
        for concurrency in concurrencies {
            let connections = try await withThrowingTaskGroup(of: AppFlipConnection.self) { tasks in
                for _ in 0..<concurrency {
                    tasks.addTask { try await AppFlipConnection.connect(to: socket, client: "bench-flip", eventLoopGroup: group) }
                }
                return try await tasks.reduce(into: []) { $0.append($1) }
            }
            for part in Part.allCases {
                _ = await round(part, concurrency: concurrency, total: min(100, options.flips), connections: connections)
            }
            var merged = Array(repeating: BenchFigures(), count: Part.allCases.count)
            for _ in 0..<rounds {
                // The parts take turns, so that a load change on the shared machine hits them all alike.
                for (index, part) in Part.allCases.enumerated() {
                    merged[index].merge(await round(part, concurrency: concurrency, total: options.flips / rounds, connections: connections))
                }
            }
            for connection in connections { await connection.close() }
            for (index, part) in Part.allCases.enumerated() {
                let figures = merged[index]
                rows.append(
                    Row(
                        part: part,
                        connections: concurrency,
                        operations: figures.operations,
                        failures: figures.failures,
                        perSecond: figures.perSecond,
                        p50Millis: figures.percentile(0.5),
                        p99Millis: figures.percentile(0.99)
                    )
                )
                if !json {
                    FileHandleOutputStream.progress(
                        "\(part) × \(concurrency): \(Int(figures.perSecond))/s, p50 \(BenchFlip.format(figures.percentile(0.5))) ms"
                    )
                }
            }
            let parts = rows.suffix(Part.allCases.count).filter { $0.part != .flip }
            if let flip = rows.last, parts.allSatisfy({ $0.perSecond > 0 }), flip.perSecond > 0 {
                ratios["flip p50 / sum of the parts' p50 @\(concurrency)"] = flip.p50Millis / parts.reduce(0) { $0 + $1.p50Millis }
                ratios["flip time per flip / sum of the parts' times per operation @\(concurrency)"] =
                    (1 / flip.perSecond) / parts.reduce(0) { $0 + 1 / $1.perSecond }
            }
        }
        await googleConnection.close()
        return Report(rows: rows, ratios: ratios)
    }

    /// `count` fresh codes from /authorize, `concurrency` at a time.
    private static func mint(_ count: Int, concurrency: Int, authorize: AuthorizationEndpoint, request: AuthorizationRequest) async -> [String] {
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
