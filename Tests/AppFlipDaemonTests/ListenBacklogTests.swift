import AppFlipConfiguration
import AppFlipDaemon
import AppFlipTesting
import Testing

/// `listenBacklog`: the value NIO passes to listen(2), on a bound path and on a socket systemd passes.
@Suite struct ListenBacklogTests {
    @Test func defaultsToTheSocketUnitsBacklog() {
        #expect(DaemonConfiguration().listenBacklog == 1024)
    }

    @Test(arguments: [(#"{"listenBacklog": 4096}"#, 4096), (#"{}"#, 1024)])
    func isReadFromTheFile(json: String, expected: Int) throws {
        let directory = try TestDirectory.make()
        defer { TestDirectory.remove(directory) }
        try TestDirectory.write(json, to: directory + "/appflipd.json", mode: 0o644)
        #expect(try DaemonConfiguration.load(from: directory + "/appflipd.json").listenBacklog == expected)
    }

    @Test(arguments: [0, -1, 65536])
    func outOfRangeIsRefusedByName(value: Int) throws {
        let directory = try TestDirectory.make()
        defer { TestDirectory.remove(directory) }
        try TestDirectory.write(#"{"listenBacklog": \#(value)}"#, to: directory + "/appflipd.json", mode: 0o644)
        #expect {
            try DaemonConfiguration.load(from: directory + "/appflipd.json")
        } throws: { error in
            (error as? ConfigurationError)?.field == "listenBacklog"
        }
    }
}
