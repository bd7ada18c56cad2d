import AppFlipClient
import AppFlipCore
import AppFlipProtocol
import ArgumentParser
import FoundationEssentials
import Glibc

/// `appflip watch`: handoffs as they happen, like `journalctl -f`.
struct WatchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Stream every handoff appflipd routes: who sent what, which app got it, the outcome, the latency.",
        discussion:
            "Runs until interrupted or until the daemon closes the connection. Exit status: 0 the daemon closed the stream, 3 appflipd unreachable."
    )

    @OptionGroup var daemon: DaemonConnectionOptions

    func run() async throws {
        let connection = try await daemon.connect()
        let style = OutputStyle.standard
        for await event in try await connection.watch() {
            // Each event is flushed at once: a pipe into grep or a CI log must see it live.
            defer { fflush(nil) }
            if daemon.json {
                try OutputJSON.print(event)
                continue
            }
            let time = Date(timeIntervalSince1970: event.time).formatted(.iso8601.time(includingFractionalSeconds: true))
            let sender = event.from.map { "uid \($0.uid) pid \($0.pid)" } ?? "-"
            let outcome =
                ["handled", "delivered"].contains(event.outcome)
                ? style.green(event.outcome) : event.outcome == "browser" ? style.yellow(event.outcome) : style.red(event.outcome)
            let indent = String(repeating: "  ", count: event.hop)
            print(
                "\(style.dim(time)) \(indent)\(sender)\(event.client.map { " (\($0))" } ?? "")  \(event.url)  → \(event.app ?? "-")  \(outcome)  \(style.dim("\(event.latencyMicros)µs"))"
            )
            if let intent = event.intent {
                let caller = intent.caller.map { ", caller \($0)" } ?? ""
                print("\(indent)  \(intent.forResult ? "for a result" : "not for a result")\(caller)  extras \(Self.describe(intent.extras))")
                if let code = intent.resultCode { print("\(indent)  result \(code)  extras \(Self.describe(intent.resultExtras ?? [:]))") }
            }
        }
    }

    /// `NAME=type:value, …` in name order; the daemon has already redacted secret values.
    static func describe(_ extras: [String: IntentExtra]) -> String {
        guard !extras.isEmpty else { return "none" }
        return extras.keys.sorted().map { name in
            switch extras[name]! {
            case .string(let value): "\(name)=string:\(value)"
            case .stringArray(let values): "\(name)=stringArray:[\(values.joined(separator: ","))]"
            case .stringArrayList(let values): "\(name)=stringArrayList:[\(values.joined(separator: ","))]"
            case .int(let value): "\(name)=int:\(value)"
            case .boolean(let value): "\(name)=boolean:\(value)"
            }
        }.joined(separator: ", ")
    }
}
