import AppFlipConfiguration
import AppFlipDaemon
import FoundationEssentials
import Testing

/// Every range docs/configuration.md gives a key of `appflipd.json` holds at both ends, and a value one past
/// either end is refused by the key's name.
@Suite struct ConfigurationRangeTests {
    /// A key, the values at the ends of its documented range, and the values one past them. `context` sets
    /// the keys a range depends on (`maxConnectionsPerUID` goes up to `maxConnections`).
    static let ranges: [(key: String, ends: [String], past: [String], context: String)] = [
        ("listenBacklog", ["1", "65535"], ["0", "65536"], ""),
        ("maxLineBytes", ["1024", "16777216"], ["1023", "16777217"], ""),
        ("maxConnections", ["1", "1048576"], ["0", "1048577"], #""maxConnectionsPerUID":1,"#),
        ("maxConnectionsPerUID", ["1", "8"], ["0", "9"], #""maxConnections":8,"#),
        ("reservedConnections", ["0", "7"], ["-1", "8"], #""maxConnections":8,"maxConnectionsPerUID":8,"#),
        ("reservedConnectionsPerUID", ["1", "1048576"], ["0", "1048577"], ""),
        ("helloTimeoutSeconds", ["0.001", "3600"], ["0", "3600.001"], ""),
        ("idleTimeoutSeconds", ["0", "86400"], ["-1", "86400.001"], ""),
        ("maxInFlightPerConnection", ["1", "1048576"], ["0", "1048577"], ""),
        ("liveAppTimeoutSeconds", ["0.001", "3600"], ["0", "3600.001"], ""),
        ("maxPendingPerLiveApp", ["1", "1048576"], ["0", "1048577"], ""),
        ("execTimeoutSeconds", ["0.001", "3600"], ["0", "3600.001"], ""),
        ("shutdownGraceSeconds", ["0", "600"], ["-0.001", "600.001"], ""),
        ("maxHops", ["1", "32"], ["0", "33"], ""),
        ("maxOpenedURLs", ["0", "1024"], ["-1", "1025"], ""),
        ("eventLoops", ["1", "256"], ["0", "257"], ""),
        ("artifactTimeoutSeconds", ["0.001", "600"], ["0", "600.001"], ""),
    ]

    static func validate(_ json: String) throws {
        let configuration = try JSONDecoder().decode(DaemonConfiguration.self, from: Data(json.utf8))
        try configuration.validate(file: "appflipd.json")
    }

    @Test(arguments: ranges)
    func aRangeHoldsAtItsEndsAndNotOnePast(key: String, ends: [String], past: [String], context: String) {
        for value in ends {
            #expect(throws: Never.self, "\(key): \(value)") { try Self.validate("{\(context)\"\(key)\":\(value)}") }
        }
        for value in past {
            #expect("\(key): \(value)") {
                try Self.validate("{\(context)\"\(key)\":\(value)}")
            } throws: { error in
                (error as? ConfigurationError)?.field == key
            }
        }
    }
}
