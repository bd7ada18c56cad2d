import AppFlipCLI
import AppFlipClient
import AppFlipCore
import AppFlipGoogle
import AppFlipHTTPClient
import AppFlipProtocol
import ArgumentParser
import AsyncHTTPClient
import Glibc
import Logging

/// Closed-loop flips: `concurrency` connections each keep one flip in flight; every flip is checked like
/// `appflip flip` does (state, code) and its code exchanged at /token. One Google app, registered once,
/// takes every result; results are matched to flips by their state.
struct BenchFlip {
    var options: BenchFlipOptions
    var concurrencies: [Int]
    var json: Bool

    struct Row: Codable {
        var connections: Int
        var flips: Int
        var failures: Int
        var flipsPerSecond: Double
        var p50Millis: Double
        var p99Millis: Double
    }

    func run() async throws {
        var connection = DaemonConnectionOptions()
        connection.socket = options.socket
        let socket = try connection.socketPath
        let flip = try flipRunner()
        var configuration = HTTPClient.Configuration.appFlipOAuth()
        configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = max(8, concurrencies.max() ?? 8)
        let httpClient = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        let googleConnection = try await connection.connect()
        let rows: [Row]
        do {
            let google = try await GoogleApp.register(on: googleConnection, bundleID: "com.google.OPA")
            rows = try await measure(flip, socket: socket, google: google, httpClient: httpClient)
        } catch {
            await googleConnection.close()
            try? await httpClient.shutdown()
            throw error
        }
        await googleConnection.close()
        try? await httpClient.shutdown()
        if json { try OutputJSON.print(rows) } else { Self.print(rows) }
        if rows.contains(where: { $0.failures > 0 }) { throw ExitCode(1) }
    }

    /// The flip each connection plays over and over: the options' partner link and client, Google's
    /// production redirect URI, the token endpoint the options resolve to, no refresh.
    private func flipRunner() throws -> FlipRunner {
        let endpoint: TokenEndpoint
        do {
            endpoint = try TokenEndpoint.resolve(
                tokenURL: nil,
                clientSecret: nil,
                oauthConfiguration: options.oauthConfig,
                clientID: options.clientID
            )
        } catch {
            throw ValidationError(error.description)
        }
        guard let partnerLink = try? RawURL(options.link) else { throw ValidationError("--flip-link is not a URL") }
        return FlipRunner(
            partnerLink: partnerLink,
            clientID: options.clientID,
            scopes: ["profile"],
            state: "",
            redirectURI: AppFlipRedirectURI.all.first { $0.bundleID == "com.google.OPA" && $0.environment == .production }!,
            tokenEndpoint: endpoint,
            refreshes: false,
            timeout: .seconds(30)
        )
    }

    /// One row per concurrency, each after 100 unrecorded warm-up flips.
    private func measure(_ flip: FlipRunner, socket: String, google: GoogleApp, httpClient: HTTPClient) async throws -> [Row] {
        var rows: [Row] = []
        for concurrency in concurrencies {
            for total in [min(100, options.flips), options.flips] {
                let row = try await measure(
                    concurrency: concurrency,
                    total: total,
                    socket: socket,
                    flip: flip,
                    google: google,
                    httpClient: httpClient
                )
                if total == options.flips { rows.append(row) }
            }
            if !json, let row = rows.last {
                FileHandleOutputStream.progress("flip × \(concurrency): \(Int(row.flipsPerSecond))/s, p50 \(Self.format(row.p50Millis)) ms")
            }
        }
        return rows
    }

    private static func print(_ rows: [Row]) {
        Swift.print("full flips    conns   flips  fail    flips/s   p50 ms   p99 ms")
        for row in rows {
            Swift.print(
                "flip         ",
                String(row.connections).leftPadded(6),
                String(row.flips).leftPadded(7),
                String(row.failures).leftPadded(5),
                String(Int(row.flipsPerSecond)).leftPadded(10),
                format(row.p50Millis).leftPadded(8),
                format(row.p99Millis).leftPadded(8)
            )
        }
        if let first = rows.first, let last = rows.last, rows.count > 1 {
            Swift.print("flips/s @\(last.connections) / flips/s @\(first.connections): \(format(last.flipsPerSecond / first.flipsPerSecond))")
        }
    }

    private func measure(
        concurrency: Int,
        total: Int,
        socket: String,
        flip: FlipRunner,
        google: GoogleApp,
        httpClient: HTTPClient
    ) async throws -> Row {
        let noLogs = Logger(label: "bench", factory: { _ in SwiftLogNoOpLogHandler() })
        let connections = try await withThrowingTaskGroup(of: AppFlipConnection.self) { group in
            for _ in 0..<concurrency { group.addTask { try await AppFlipConnection.connect(to: socket, client: "bench-flip") } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        let started = Int(WallClock.now())
        let figures = await BenchClosedLoop.run(workers: Array(connections.enumerated()), total: total) { worker, index in
            var flip = flip
            flip.state = "bench-\(worker.offset)-\(index)-\(started)"
            return await flip.run(connection: worker.element, google: google, events: nil, httpClient: httpClient, logger: noLogs).exitStatus == 0
        }
        for connection in connections { await connection.close() }
        return Row(
            connections: concurrency,
            flips: total,
            failures: figures.failures,
            flipsPerSecond: figures.perSecond,
            p50Millis: figures.percentile(0.5),
            p99Millis: figures.percentile(0.99)
        )
    }

    static func format(_ value: Double) -> String { String(Double(Int(value * 100)) / 100) }
}
