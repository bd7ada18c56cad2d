import AppFlipClient
import AppFlipProtocol
import ArgumentParser

/// `appflip explain URL`: the routing decision, without delivering anything.
struct ExplainCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "explain",
        abstract: "Show which app appflipd would give a URL to on iOS and on Android, and every candidate's decision.",
        discussion:
            "Exit status: 0 an app matches on iOS or opens it on the Android device appflipd plays, 1 neither (excluded, no app, the browser) or an invalid URL, 3 appflipd unreachable."
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
                case .match:
                    print("iOS      " + style.green("✔ match") + ": \(style.bold(result.app ?? "?"))" + style.dim(" at \(result.rule ?? "-")"))
                case .exclude: print("iOS      " + style.yellow("✘ exclude") + ": \(result.app ?? "?")" + style.dim(" at \(result.rule ?? "-")"))
                case .noApp: print("iOS      " + style.red("✘ no_app") + ": no app claims the URL")
                }
                for candidate in result.candidates {
                    let position = [candidate.details.map { "details[\($0)]" }, candidate.component.map { "components[\($0)]" }].compactMap { $0 }
                        .joined(separator: ".")
                    print(
                        "  \(candidate.app)  \(candidate.domain)  \(candidate.outcome)"
                            + style.dim("  \(position.isEmpty ? candidate.rule : position)")
                    )
                }
                if let android = result.android {
                    print("Android  " + Self.describe(android, style: style))
                    for other in android.otherwise ?? [] { print("  otherwise " + Self.describe(other, style: style)) }
                }
            }
            if result.decision != .match, result.android?.decision != .match { throw DaemonExitCode.refused }
        case .success(let other):
            printError("unexpected reply for \(other.op.rawValue)")
            throw DaemonExitCode.refused
        case .failure(let error):
            if !daemon.json { print(style.describe(error)) }
            throw DaemonExitCode.refused
        }
    }

    /// One Android decision on one line: the device, the outcome, and the filter or the reason.
    static func describe(_ decision: AndroidDecision, style: OutputStyle) -> String {
        let device = style.dim("(\(decision.verifier), Android \(decision.generation)) ")
        switch decision.decision {
        case .match:
            return device + style.green("✔ match") + ": \(style.bold(decision.apps.joined()))"
                + style.dim(" at \(decision.rule ?? "-") (\(decision.host ?? "-"))") + (decision.reason.map { style.dim("; \($0)") } ?? "")
        case .chooser:
            return device + style.yellow("✘ chooser") + ": " + decision.apps.joined(separator: ", ") + " and the browsers: " + (decision.reason ?? "")
        case .browser:
            return device + style.red("✘ browser") + ": " + (decision.reason ?? "")
        }
    }
}
