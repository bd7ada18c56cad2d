import AppFlipCore
import AppFlipProtocol
import AppFlipTestSupport
import AppFlipTesting
import FoundationEssentials
import Testing

/// `appflip explain` and `appflip open --platform android` on the demo partner as `Config/` ships it: its
/// AASA, its Android identity and its committed statement list, with a `builtin` handler in place of the
/// `appflip` one (which needs the OAuth server on its fixed port).
@Suite struct ExplainDemoTests {
    static let root = #filePath.components(separatedBy: "/Tests/").first!

    /// The shipped demo app file, its paths made absolute and its handler `builtin: accept`.
    static func demoAppFile() throws -> String {
        let shipped = try String(contentsOfFile: root + "/Config/apps.d/demo-partner.json", encoding: .utf8)
        guard case .object(var app) = try JSONDecoder().decode(JSONValue.self, from: Data(shipped.utf8)),
            case .object(var android)? = app["android"], case .object(var links)? = android["assetLinks"]
        else { throw DemoError("the demo app file has no android.assetLinks") }
        app["associationFile"] = .string(root + "/Config/demo-partner.apple-app-site-association")
        for (host, _) in links { links[host] = .string(root + "/Config/demo-partner.assetlinks.json") }
        android["assetLinks"] = .object(links)
        app["android"] = .object(android)
        app["handler"] = .object(["builtin": .string("accept")])
        return String(decoding: try JSONEncoder().encode(JSONValue.object(app)), as: UTF8.self)
    }

    @Test func explainShowsIOSAndAndroidSideBySideOnTheDemoConfiguration() async throws {
        let daemon = try TestDaemon.make()
        defer { TestDirectory.remove(daemon.directory) }
        try TestDirectory.write(try Self.demoAppFile(), to: daemon.directory + "/apps.d/demo-partner.json", mode: 0o644)
        _ = try await TestDaemonProcess.run(daemon) { _ in
            let environment = ["APPFLIP_SOCKET": daemon.socketPath, "NO_COLOR": "1"]
            let internalLink = "https://partner.appflip.test/link/internal/x"
            let json = try await TestCommand.run("appflip", ["explain", internalLink, "--json"], environment: environment)
            #expect(json.status == 1, "\(json.standardError)")
            let reply = try JSONDecoder().decode(Reply.self, from: Data(json.standardOutput.utf8))
            guard case .success(.explain(let result)) = reply.outcome else { throw DemoError("\(reply)") }
            #expect(result.decision == .exclude)
            #expect(result.rule == "/applinks/details/0/components/0")
            let android = try #require(result.android)
            #expect(android.verifier == "google")
            #expect(android.generation == 15)
            #expect(android.decision == .browser)
            #expect(android.reason?.contains("dynamic_app_link_components/0 of its statement excludes the URL") == true, "\(android)")
            let otherwise = try #require(android.otherwise)
            #expect(otherwise.map { "\($0.verifier) \($0.generation)" } == ["google 11", "google 12", "statementService 11", "statementService 12"])
            #expect(otherwise.allSatisfy { $0.decision == .match && $0.apps == ["DEMOTEAM01.dev.appflip.demo-partner"] })
            #expect(otherwise.allSatisfy { $0.rule == "/android/intentFilters/0" && $0.host == "partner.appflip.test" })

            let text = try await TestCommand.run("appflip", ["explain", "https://partner.appflip.test/link/flip"], environment: environment)
            #expect(text.status == 0, "\(text.standardError)")
            let lines = text.standardOutput.split(separator: "\n").map(String.init)
            #expect(lines.first == "iOS      ✔ match: DEMOTEAM01.dev.appflip.demo-partner at /applinks/details/0/components/1")
            #expect(
                lines.contains(
                    "Android  (google, Android 15) ✔ match: DEMOTEAM01.dev.appflip.demo-partner at /android/intentFilters/0 (partner.appflip.test)"
                ),
                "\(lines)"
            )
            #expect(!lines.contains { $0.contains("otherwise") }, "every device agrees: \(lines)")

            let opened = try await TestCommand.run(
                "appflip",
                ["open", "--platform", "android", "https://partner.appflip.test/link/flip"],
                environment: environment
            )
            #expect(opened.status == 0, "\(opened.standardError)")
            #expect(
                opened.standardOutput.hasPrefix("✔ handled by DEMOTEAM01.dev.appflip.demo-partner via partner.appflip.test, /android/intentFilters/0")
            )
        }
    }
}

struct DemoError: Error, CustomStringConvertible {
    var description: String

    init(_ description: String) {
        self.description = description
    }
}
