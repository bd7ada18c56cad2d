import AppFlipClient
import AppFlipProtocol
import ArgumentParser

/// `appflip open URL`: hand a browsing-web activity to the app that claims the URL.
struct OpenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "open",
        abstract: "Send a universal link to appflipd and print what the claiming app did with it.",
        discussion:
            "Exit status: 0 handled (or sent to the browser with --allow-browser) and every URL the app opened delivered, 1 the daemon refused or the app declined or failed, 2 handled but a URL the app opened was declined or not delivered, 3 appflipd unreachable."
    )

    @Argument(help: "The https URL to open.")
    var url: String

    @Flag(help: "Send universalLinksOnly: false, so that a URL no app claims is reported as opened in a browser instead of failing with no_app.")
    var allowBrowser = false

    @Option(help: "The link dispatcher to emulate, ios or android; without it, appflipd's `platform` setting.")
    var platform: String?

    @Option(help: "The activity type to send.")
    var activityType = browsingWebActivityType

    @OptionGroup var daemon: DaemonConnectionOptions

    func validate() throws {
        if let platform, Platform(rawValue: platform) == nil { throw ValidationError("--platform is ios or android, not \(platform)") }
    }

    func run() async throws {
        let request = OpenRequest(
            activity: Activity(activityType: activityType, webpageURL: url),
            options: OpenOptions(universalLinksOnly: !allowBrowser, platform: platform.flatMap(Platform.init(rawValue:)))
        )
        let reply = try await daemon.send(.open(request))
        if daemon.json { try OutputJSON.print(reply) }
        let style = OutputStyle.standard
        switch reply.outcome {
        case .success(.open(let result)):
            if !daemon.json {
                switch result.status {
                case .handled:
                    print(
                        style.green("✔ handled") + " by \(style.bold(result.app ?? "?"))"
                            + style.dim(" via \(result.domain ?? "-"), \(result.rule ?? "-")")
                    )
                case .browser:
                    print(style.yellow("→ browser") + ": " + (result.reason ?? "no app claims the URL; on iOS it would open in the browser"))
                case .chooser:
                    print(
                        style.yellow("→ chooser") + " (\((result.apps ?? []).joined(separator: ", ")) and the browsers; no user to choose): "
                            + (result.reason ?? "")
                    )
                }
                result.opened.forEach { print(style.describe(opened: $0)) }
            }
            if result.opened.contains(where: { $0.status == .failed || $0.status == .declined }) { throw DaemonExitCode.undelivered }
        case .success(let other):
            printError("unexpected reply for \(other.op.rawValue)")
            throw DaemonExitCode.refused
        case .failure(let error):
            if !daemon.json {
                print(style.describe(error))
                if let app = error.app { print("  app \(app)" + (error.rule.map { style.dim(", \($0)") } ?? "")) }
                error.opened?.forEach { print(style.describe(opened: $0)) }
            }
            throw DaemonExitCode.refused
        }
    }
}
