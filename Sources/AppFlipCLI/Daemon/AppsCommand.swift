import AppFlipClient
import AppFlipCore
import AppFlipProtocol
import ArgumentParser

/// `appflip apps`: the registry.
struct AppsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "apps",
        abstract:
            "List the apps appflipd routes to: static apps from apps.d and live apps with their pid and uid, and their Android packages (with the artifact each was read from), signing fingerprints, activities and link hosts' verification states (as pm get-app-links shows them); then the app files refused alone, each with why.",
        discussion: "Exit status: 0 listed, 3 appflipd unreachable."
    )

    @OptionGroup var daemon: DaemonConnectionOptions

    func run() async throws {
        let reply = try await daemon.send(.apps)
        if daemon.json { try OutputJSON.print(reply) }
        guard case .success(.apps(let result)) = reply.outcome else {
            if case .failure(let error) = reply.outcome, !daemon.json { print(OutputStyle.standard.describe(error)) }
            throw DaemonExitCode.refused
        }
        guard !daemon.json else { return }
        let style = OutputStyle.standard
        if result.apps.isEmpty { print(style.dim("no apps registered")) }
        for app in result.apps {
            let origin: String =
                switch app.kind {
                case .static: app.source.map { "static, \($0)" } ?? "static"
                case .live: app.peer.map { "live, pid \($0.pid), uid \($0.uid)" } ?? "live"
                }
            print(style.bold(app.appID) + "  " + app.handler + style.dim("  (\(origin))"))
            for domain in app.domains { print("  \(domain)") }
            if let android = app.android {
                print("  android \(android.package)" + (app.artifact.map { style.dim("  (from the \($0.kind) \($0.file))") } ?? ""))
                for fingerprint in android.fingerprints { print(style.dim("    signed by \(fingerprint)")) }
                for activity in android.activities {
                    let exported = activity.exported ? "exported" : "not exported"
                    print("    \(activity.className(in: android.package))" + style.dim("  (\(exported))"))
                    for action in activity.actions { print("      action \(action)") }
                    for category in activity.categories { print(style.dim("      category \(category)")) }
                }
                if let states = app.domainVerification {
                    let status = states.status.map { ", status \($0)" } ?? ""
                    print("    domain verification" + style.dim(" (\(states.verifier), Android \(states.generation)\(status))"))
                    for host in states.hosts {
                        let state = host.state == "verified" ? style.green(host.state) : style.yellow(host.state)
                        print("      \(host.host): \(state)" + style.dim("  \(host.reason)"))
                    }
                }
            }
        }
        for refused in result.refused {
            print(style.red("refused") + " \(refused.source)" + (refused.field.map { ": `\($0)`" } ?? "") + ": \(refused.message)")
        }
    }
}
