import AppFlipConfiguration
import AppFlipDaemon
import AppFlipTesting
import Testing

/// A number that is no `Int` in an integer key is refused at that key. FoundationEssentials' decoder calls
/// it a document that is not JSON, which named neither the key nor the fault.
@Suite struct IntegerKeysTests {
    static let daemonKeys = [
        "listenBacklog", "maxLineBytes", "maxConnections", "maxConnectionsPerUID", "reservedConnections", "reservedConnectionsPerUID",
        "maxInFlightPerConnection", "maxPendingPerLiveApp", "maxHops", "maxOpenedURLs", "eventLoops",
    ]
    static let notIntegers = ["1.5", "1e30", "99999999999999999999", "-0.5"]

    @Test(arguments: daemonKeys, notIntegers)
    func anAppflipdKeyIsRefusedByName(key: String, value: String) throws {
        let directory = try TestDirectory.make()
        defer { TestDirectory.remove(directory) }
        try TestDirectory.write(#"{"\#(key)": \#(value)}"#, to: directory + "/appflipd.json", mode: 0o644)
        #expect(throws: ConfigurationError(file: directory + "/appflipd.json", field: key, "must be an integer")) {
            try DaemonConfiguration.load(from: directory + "/appflipd.json")
        }
    }

    @Test func anIntegerWrittenWithAZeroFractionIsThatInteger() throws {
        let directory = try TestDirectory.make()
        defer { TestDirectory.remove(directory) }
        try TestDirectory.write(#"{"maxHops": 3.0}"#, to: directory + "/appflipd.json", mode: 0o644)
        #expect(try DaemonConfiguration.load(from: directory + "/appflipd.json").maxHops == 3)
    }
}
