import AppFlipDaemon
import AppFlipProtocol
import FoundationEssentials
import Testing

/// The shipped `Config/appflipd.json` loads as it is. Its demo partner app uses the `appflip` handler, which
/// AppFlipPartnerTests drives end to end.
@Suite struct ShippedConfigTests {
    /// `Config/appflipd.json` in this checkout, found from this source file.
    static let configurationFile: String = {
        let here = #filePath
        let root = here.components(separatedBy: "/Tests/").first!
        return root + "/Config/appflipd.json"
    }()

    @Test func theShippedConfigurationLoads() throws {
        let configuration = try DaemonConfiguration.load(from: Self.configurationFile)
        #expect(configuration.maxLineBytes == FrameLimits.defaultMaxLineBytes)
        #expect(configuration.appsDirectory?.hasSuffix("Config/apps.d") == true)
    }
}
