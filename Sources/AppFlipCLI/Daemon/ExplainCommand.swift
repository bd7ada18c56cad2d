import AppFlipClient
import AppFlipProtocol
import ArgumentParser

/// `appflip explain URL`: the routing decision, without delivering anything.
struct ExplainCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "explain",
        abstract: "Show which app appflipd would give a URL to, and every candidate's decision.",
        discussion: "Exit status: 0 an app matches, 1 excluded, no app, or an invalid URL, 3 appflipd unreachable."
    )

    @Argument(help: "The https URL to explain.")
    var url: String

    @OptionGroup var daemon: DaemonConnectionOptions

    func run() async throws {
        let reply = try await daemon.send(.explain(ExplainRequest(url: url)))
        if daemon.json { try OutputJSON.print(reply) }
        let style = OutputStyle.standard
        switch reply.outcome {
        case .success(.explain(let result)):
            if !daemon.json {
                switch result.decision {
                case .match: print(style.green("✔ match") + ": \(style.bold(result.app ?? "?"))" + style.dim(" at \(result.rule ?? "-")"))
                case .exclude: print(style.yellow("✘ exclude") + ": \(result.app ?? "?")" + style.dim(" at \(result.rule ?? "-")"))
                case .noApp: print(style.red("✘ no_app") + ": no app claims the URL")
                }
                for candidate in result.candidates {
                    let position = [candidate.details.map { "details[\($0)]" }, candidate.component.map { "components[\($0)]" }].compactMap { $0 }
                        .joined(separator: ".")
                    print(
                        "  \(candidate.app)  \(candidate.domain)  \(candidate.outcome)"
                            + style.dim("  \(position.isEmpty ? candidate.rule : position)")
                    )
                }
            }
            if result.decision != .match { throw DaemonExitCode.refused }
        case .success(let other):
            printError("unexpected reply for \(other.op.rawValue)")
            throw DaemonExitCode.refused
        case .failure(let error):
            if !daemon.json { print(style.describe(error)) }
            throw DaemonExitCode.refused
        }
    }
}
