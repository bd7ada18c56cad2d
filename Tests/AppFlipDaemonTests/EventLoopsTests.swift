import AppFlipConfiguration
import AppFlipDaemon
import AppFlipTesting
import NIOCore
import Testing

/// `eventLoops`: how many event loop threads serve the socket; by default one CPU is left to the log writer.
@Suite struct EventLoopsTests {
    @Test func defaultsToOneFewerThanTheCPUsAndAtLeastOne() {
        #expect(DaemonConfiguration().eventLoops == nil)
        #expect(DaemonConfiguration().eventLoopsInEffect == max(1, System.coreCount - 1))
    }

    @Test(arguments: [(#"{"eventLoops": 3}"#, 3), (#"{"eventLoops": null}"#, nil), (#"{}"#, nil)] as [(String, Int?)])
    func isReadFromTheFile(json: String, expected: Int?) throws {
        let directory = try TestDirectory.make()
        defer { TestDirectory.remove(directory) }
        try TestDirectory.write(json, to: directory + "/appflipd.json", mode: 0o644)
        let configuration = try DaemonConfiguration.load(from: directory + "/appflipd.json")
        #expect(configuration.eventLoops == expected)
        #expect(configuration.eventLoopsInEffect == expected ?? max(1, System.coreCount - 1))
    }

    @Test(arguments: ["0", "-1", "257", "\"2\"", "[1]"])
    func aValueOutOfRangeOrOfTheWrongTypeIsRefusedByName(value: String) throws {
        let directory = try TestDirectory.make()
        defer { TestDirectory.remove(directory) }
        try TestDirectory.write(#"{"eventLoops": \#(value)}"#, to: directory + "/appflipd.json", mode: 0o644)
        #expect {
            try DaemonConfiguration.load(from: directory + "/appflipd.json")
        } throws: { error in
            (error as? ConfigurationError)?.field == "eventLoops"
        }
    }
}
