import AppFlipCLI
import AppFlipClient
import AppFlipCore
import AppFlipDaemon
import AppFlipProtocol
import AppFlipServer
import ArgumentParser
import FoundationEssentials
import Glibc
import Logging
import NIOCore
import NIOPosix
import ServiceLifecycle

/// `appflip-bench`: handoff throughput and latency through a real daemon, against raw baselines measured in
/// the same run.
struct BenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "appflip-bench",
        abstract: "Measure handoffs through appflipd against a raw Unix-socket echo and a raw two-hop relay.",
        discussion: """
            Everything runs in this process on one event loop group: an appflipd on a temporary socket with a
            built-in `accept` app and a live app registered over the socket, the raw echo, the raw relay, and
            the closed-loop clients (one request in flight per connection). Every scenario sends the same
            request line; the scenarios take turns in rounds. The baselines batch their writes the way the
            daemon and the live app do. Only ratios between figures of one run mean
            anything on a shared machine. Build with -c release.

            With --socket it measures a running appflipd instead (one under systemd logs every handoff to
            the journal): the live app registers there under an app id and domain of its own, the baselines
            still run in this process, and the builtin scenario, the memory check and the thresholds, which
            concern the in-process daemon, are left out.

            The figures are held to the thresholds in Benchmarks/Thresholds (handoffs.json here,
            flip-parts.json with --flip-parts, audit.json with --audit): a broken one exits 1.
            """
    )

    @Option(help: "Round trips per scenario and connection count.")
    var requests = 20_000

    @Option(help: "Rounds per connection count: the scenarios take turns, each running requests/rounds round trips per round.")
    var rounds = 5

    @Option(help: "Connection counts, comma-separated.")
    var connections = "1,8,64"

    @Option(
        help:
            "Scenarios to run, comma-separated (echo, relay, builtin, live); one alone is for profiling it. (default: all; with --socket, echo,relay,live)"
    )
    var scenarios: String?

    @Option(help: "Measure the running appflipd at this socket instead of one started in this process.")
    var socket: String?

    @Option(help: "Live-app handoffs for the memory check (RSS after 10k and after this many).")
    var rssHandoffs = defaultRSSHandoffs

    /// The memory check's handoffs unless `--rss-handoffs` says otherwise: the figure handoffs.json holds.
    static let defaultRSSHandoffs = 1_000_000

    @Option(help: "Event loop threads (default: the number of cores).")
    var threads = System.coreCount

    @Flag(help: "Print the figures as JSON.")
    var json = false

    @Option(
        help: ArgumentHelp(
            "Serve only the raw echo (DIR/echo.sock) and relay (DIR/relay.sock) until killed: the NIO baseline Benchmarks/bench-vs-c measures in a process of its own.",
            valueName: "DIR"
        )
    )
    var serveBaselines: String?

    @OptionGroup var flipOptions: BenchFlipOptions

    @OptionGroup var auditOptions: BenchAudit

    @OptionGroup var thresholdOptions: BenchThresholdOptions

    struct Row: Codable {
        var scenario: String
        var connections: Int
        var requests: Int
        var failures: Int
        var throughputPerSecond: Double
        var p50Micros: Double
        var p99Micros: Double
    }

    struct Report: Codable {
        var rows: [Row]
        var ratios: [String: Double]
        var rssKiBAfter10k: Int?
        var rssKiBAfterAll: Int?
        var rssHandoffs: Int
    }

    func run() async throws {
        let counts = connections.split(separator: ",").compactMap { Int($0.filter { $0 != " " }) }
        guard !counts.isEmpty, counts.allSatisfy({ $0 > 0 }) else { throw ValidationError("--connections must list positive numbers") }
        if let file = thresholdOptions.standardInputFile { return try thresholdOptions.checkStandardInput(file) }
        if let serveBaselines { try await Self.serveBaselines(in: serveBaselines, threads: threads) }
        if auditOptions.audit { return try await auditOptions.run(threads: threads, json: json, thresholds: thresholdOptions) }
        if flipOptions.flipParts {
            return try await BenchFlipParts(options: flipOptions, concurrencies: counts, rounds: rounds, threads: threads, json: json)
                .run(thresholds: thresholdOptions)
        }
        if flipOptions.flip { return try await BenchFlip(options: flipOptions, concurrencies: counts, json: json).run() }
        guard rounds > 0, requests >= rounds else { throw ValidationError("--rounds must be positive and at most --requests") }
        let chosen = Set(
            (scenarios ?? (socket == nil ? "echo,relay,builtin,live" : "echo,relay,live")).split(separator: ",").map { $0.filter { $0 != " " } }
        )
        let unknown = chosen.subtracting(["echo", "relay", "builtin", "live"])
        guard unknown.isEmpty else {
            throw ValidationError("--scenarios takes echo, relay, builtin and live, not \(unknown.sorted().joined(separator: ", "))")
        }
        if socket != nil, chosen.contains("builtin") {
            throw ValidationError("the builtin scenario needs the in-process daemon; leave it out with --socket")
        }
        let group = MultiThreadedEventLoopGroup(numberOfThreads: threads)
        let directory = try Self.makeDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let report: Report
        if let socket {
            report = try await measure(socket: socket, inProcess: false, scenarios: chosen, directory: directory, counts: counts, group: group)
        } else {
            let acceptApp =
                #"{"appID":"BENCH.accept","domains":["applinks:accept.bench"],"association":{"applinks":{"details":[{"appIDs":["BENCH.accept"],"components":[{"/":"*"}]}]}},"handler":{"builtin":"accept"}}"#
            report = try await BenchInProcessDaemon.run(directory: directory, apps: ["accept.json": acceptApp], group: group) { socket, _ in
                try await measure(socket: socket, inProcess: true, scenarios: chosen, directory: directory, counts: counts, group: group)
            }
        }
        try? await group.shutdownGracefully()
        if json { try OutputJSON.print(report) } else { printReport(report) }
        // The thresholds concern the daemon in this process; one at --socket is another build's.
        if socket == nil { try thresholdOptions.check(report.ratios, mode: "handoffs", json: json) }
    }

    /// Serves the raw echo and relay in `directory` until the process is killed.
    private static func serveBaselines(in directory: String, threads: Int) async throws -> Never {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: threads)
        let echo = try await BenchRawServers.echo(at: directory + "/echo.sock", group: group)
        _ = try await BenchRawServers.relay(at: directory + "/relay.sock", upstream: directory + "/echo.sock", group: group)
        FileHandleOutputStream.progress("serving \(directory)/echo.sock and \(directory)/relay.sock")
        try await echo.closeFuture.get()
        throw ExitCode.failure
    }

    /// A new private directory under `$TMPDIR` (or /tmp) with a short name: socket paths have a length limit.
    static func makeDirectory() throws -> String {
        let base = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
        var template = Array((base + "/afb-XXXXXX").utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw ValidationError("cannot make a temporary directory under \(base): \(String(cString: strerror(errno)))")
        }
        return String(cString: made)
    }

    /// One scenario: a name, where it connects, the line it sends (after `hello`, when given), and which reply
    /// is a success.
    struct Scenario {
        var name: String
        var path: String
        var line: [UInt8]
        var hello: [UInt8]?
        var check: @Sendable (ByteBufferView) -> Bool
    }

    private func measure(
        socket: String,
        inProcess: Bool,
        scenarios chosen: Set<String>,
        directory: String,
        counts: [Int],
        group: any EventLoopGroup
    ) async throws -> Report {
        let (live, liveHost) = try await registerLiveApp(on: socket, inProcess: inProcess, group: group)
        let echo = try await BenchRawServers.echo(at: directory + "/echo.sock", group: group)
        let relay = try await BenchRawServers.relay(at: directory + "/relay.sock", upstream: directory + "/echo.sock", group: group)
        let scenarios = Self.scenarios(socket: socket, directory: directory, liveHost: liveHost).filter { chosen.contains($0.0) }.map(\.1)
        var rows: [Row] = []
        for count in counts { rows += try await measure(scenarios, connections: count, group: group) }
        var ratios = Self.ratios(rows, counts: counts)
        var rss: (after10k: Int, afterAll: Int)?
        // The memory check reads this process's RSS: it means something only with the daemon in it.
        if inProcess, rssHandoffs >= 10_000 {
            let live = Self.scenarios(socket: socket, directory: directory, liveHost: liveHost).first { $0.0 == "live" }!.1
            rss = try await measureMemory(live, connections: counts.max() ?? 64, group: group)
            ratios[Self.rssFigure(handoffs: rssHandoffs)] = rss.map { Double($0.afterAll) / Double($0.after10k) }
        }
        await live.close()
        try? await relay.close()
        try? await echo.close()
        return Report(rows: rows, ratios: ratios, rssKiBAfter10k: rss?.after10k, rssKiBAfterAll: rss?.afterAll, rssHandoffs: rssHandoffs)
    }

    /// The name of the memory check's figure, which `Benchmarks/Thresholds/handoffs.json` holds.
    static func rssFigure(handoffs: Int) -> String {
        "RSS after \(handoffs) / RSS after 10000"
    }

    /// Registers the bench's live app, which answers every push at once. A running daemon may serve other
    /// benches or apps: there the live app has a name of its own.
    private func registerLiveApp(
        on socket: String,
        inProcess: Bool,
        group: any EventLoopGroup
    ) async throws -> (connection: AppFlipConnection, host: String) {
        let liveHost = inProcess ? "live.bench" : "live-\(getpid()).bench"
        let live = try await AppFlipConnection.connect(to: socket, client: "bench-live-app", eventLoopGroup: group)
        _ = try await live.register(
            RegisterRequest(
                appID: "BENCH.live\(inProcess ? "" : ".\(getpid())")",
                domains: ["applinks:\(liveHost)"],
                components: [.object(["/": .string("*")])]
            ),
            handler: ImmediateLiveApp { _ in LiveAnswer(continue: true) }
        )
        return (live, liveHost)
    }

    /// Every scenario, by its `--scenarios` name: the raw echo and relay send the live app's line and expect it
    /// back; the daemon's scenarios say `hello` first and expect `ok`.
    static func scenarios(socket: String, directory: String, liveHost: String) -> [(String, Scenario)] {
        func openLine(_ url: String) -> [UInt8] {
            Request(id: .number(1), .open(OpenRequest(activity: Activity(webpageURL: url), options: .init(universalLinksOnly: true)))).encodedLine()
        }
        let hello = Request(id: .number(0), .hello(HelloRequest(client: "bench"))).encodedLine()
        let liveLine = openLine("https://\(liveHost)/handoff")
        let handled: @Sendable (ByteBufferView) -> Bool = { reply in reply.starts(with: Array(#"{"id":1,"ok":true"#.utf8)) }
        let echoed: @Sendable (ByteBufferView) -> Bool = { reply in reply.elementsEqual(liveLine) }
        return [
            ("echo", Scenario(name: "raw echo", path: directory + "/echo.sock", line: liveLine, hello: nil, check: echoed)),
            ("relay", Scenario(name: "raw relay", path: directory + "/relay.sock", line: liveLine, hello: nil, check: echoed)),
            (
                "builtin",
                Scenario(name: "appflipd builtin", path: socket, line: openLine("https://accept.bench/handoff"), hello: hello, check: handled)
            ),
            ("live", Scenario(name: "appflipd live app", path: socket, line: liveLine, hello: hello, check: handled)),
        ]
    }

    /// Every scenario at `connections`, after a warm-up: the scenarios take turns in short rounds, so that a
    /// load change on the shared machine hits them all alike instead of skewing whichever ran at that moment.
    private func measure(_ scenarios: [Scenario], connections: Int, group: any EventLoopGroup) async throws -> [Row] {
        func run(_ scenario: Scenario, requests: Int, recordLatencies: Bool) async throws -> BenchFigures {
            try await BenchLoad.run(
                path: scenario.path,
                connections: connections,
                requests: requests,
                line: scenario.line,
                hello: scenario.hello,
                recordLatencies: recordLatencies,
                group: group,
                isSuccess: scenario.check
            )
        }
        for scenario in scenarios { _ = try await run(scenario, requests: min(2000, requests), recordLatencies: false) }
        var merged = Array(repeating: BenchFigures(), count: scenarios.count)
        for _ in 0..<rounds {
            for (index, scenario) in scenarios.enumerated() {
                merged[index].merge(try await run(scenario, requests: requests / rounds, recordLatencies: true))
            }
        }
        return zip(scenarios, merged).map { scenario, figures in
            if !json {
                FileHandleOutputStream.progress("\(scenario.name) × \(connections): \(Int(figures.perSecond))/s, p50 \(figures.percentile(0.5)) µs")
            }
            return Row(
                scenario: scenario.name,
                connections: connections,
                requests: figures.operations,
                failures: figures.failures,
                throughputPerSecond: figures.perSecond,
                p50Micros: figures.percentile(0.5),
                p99Micros: figures.percentile(0.99)
            )
        }
    }

    /// The live app's p50 and throughput over the raw relay's, per connection count.
    static func ratios(_ rows: [Row], counts: [Int]) -> [String: Double] {
        var ratios: [String: Double] = [:]
        func row(_ scenario: String, _ count: Int) -> Row? { rows.first { $0.scenario == scenario && $0.connections == count } }
        for count in counts {
            if let liveRow = row("appflipd live app", count), let relayRow = row("raw relay", count) {
                ratios["live p50 / relay p50 @\(count)"] = liveRow.p50Micros / relayRow.p50Micros
                ratios["live throughput / relay throughput @\(count)"] = liveRow.throughputPerSecond / relayRow.throughputPerSecond
            }
        }
        return ratios
    }

    /// This process's RSS after 10,000 live-app handoffs and after `--rss-handoffs` in all.
    private func measureMemory(_ live: Scenario, connections: Int, group: any EventLoopGroup) async throws -> (after10k: Int, afterAll: Int)? {
        func run(_ requests: Int) async throws {
            _ = try await BenchLoad.run(
                path: live.path,
                connections: connections,
                requests: requests,
                line: live.line,
                hello: live.hello,
                recordLatencies: false,
                group: group,
                isSuccess: live.check
            )
        }
        try await run(10_000)
        let after10k = Self.residentKiB()
        try await run(rssHandoffs - 10_000)
        guard let after10k, let afterAll = Self.residentKiB() else { return nil }
        return (after10k, afterAll)
    }

    private func printReport(_ report: Report) {
        print("scenario             conns   requests  fail   throughput/s    p50 µs    p99 µs")
        for row in report.rows {
            print(
                row.scenario.rightPadded(20),
                String(row.connections).leftPadded(6),
                String(row.requests).leftPadded(10),
                String(row.failures).leftPadded(5),
                String(Int(row.throughputPerSecond)).leftPadded(14),
                String(format1(row.p50Micros)).leftPadded(9),
                String(format1(row.p99Micros)).leftPadded(9)
            )
        }
        if let before = report.rssKiBAfter10k, let after = report.rssKiBAfterAll {
            print("RSS (whole process): \(before) KiB after 10000 live-app handoffs, \(after) KiB after \(report.rssHandoffs)")
        } else if socket != nil {
            print("RSS: not measured (the daemon at --socket runs in another process)")
        }
        for (name, value) in report.ratios.sorted(by: { $0.key < $1.key }) {
            print("\(name): \(format2(value))")
        }
    }

    private func format1(_ value: Double) -> String { value.isFinite ? String(Double(Int(value * 10)) / 10) : "\(value)" }
    private func format2(_ value: Double) -> String { value.isFinite ? String(Double(Int(value * 100)) / 100) : "\(value)" }

    /// This process's resident set size, from /proc/self/status.
    static func residentKiB() -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
        }
        return nil
    }
}

extension FileHandleOutputStream {
    /// A progress line on stderr, so that `--json` stdout stays clean.
    static func progress(_ line: String) {
        var standardError = FileHandleOutputStream.standardError
        print(line, to: &standardError)
    }
}

/// `appflip-bench`'s entry point. The command itself stays internal, where its `Sendable` is inferred.
public func runBenchCommand() async {
    await BenchCommand.main()
}
