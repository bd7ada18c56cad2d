import AppFlipClient
import AppFlipProtocol
import AppFlipTestSupport
import AppFlipTesting
import Testing

/// The built `appflipd` run for a test, and a command of this package run to completion, both found where
/// `swift build` put them.
@Suite struct BuiltExecutablesTests {
    @Test func runTheExecutableAndACommand() async throws {
        let daemon = try TestDaemon.make(apps: [TestApp(appID: "TEAM000001.test.a", domains: ["applinks:a.test"], handler: .accept)])
        defer { TestDirectory.remove(daemon.directory) }
        let (result, exit) = try await TestDaemonProcess.run(daemon) { _ in
            try await daemon.connect().open("https://a.test/")
        }
        #expect(result.status == .handled)
        #expect(exit.status == 0)

        let broken = try await TestDaemonProcess.runToCompletion(arguments: ["--config", "/nonexistent.json"])
        #expect(broken.status != 0)

        try await withTestDaemon(apps: [TestApp(appID: "TEAM000001.test.a", domains: ["applinks:a.test"], handler: .accept)]) { daemon in
            let environment = ["APPFLIP_SOCKET": daemon.socketPath, "NO_COLOR": "1"]
            let outcome = try await TestCommand.run("appflip", ["open", "https://a.test/x"], environment: environment)
            #expect(outcome.status == 0)
            #expect(outcome.standardOutput.hasPrefix("✔ handled by TEAM000001.test.a"))
        }
    }
}
