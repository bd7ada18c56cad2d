import AppFlipConfiguration
import AppFlipProtocol
import FoundationEssentials
import Testing

@testable import AppFlipDaemon

/// The connection slots: per uid, in all, and the reserve that uids with many connections cannot take.
@Suite struct ConnectionLimitsTests {
    /// 16 slots, 8 per uid, the last 4 kept for uids with fewer than 2 open.
    let limits = ConnectionLimits(maxConnections: 16, maxPerUID: 8, reserved: 4, reservedPerUID: 2)

    func admit(_ uid: UInt32?, _ count: Int) -> [ErrorBody?] {
        (0..<count).map { _ in limits.admit(uid: uid) }
    }

    @Test func twoUIDsAtTheirLimitCannotTakeTheReserve() {
        #expect(admit(1, 8).allSatisfy { $0 == nil })
        #expect(admit(2, 4).allSatisfy { $0 == nil })
        // 12 of 16 taken: the last 4 are reserved, and uid 2 has 4 open.
        let refusal = limits.admit(uid: 2)
        #expect(refusal?.code == .tooManyConnections)
        #expect(refusal?.message.contains("(reservedConnections)") == true)
        #expect(refusal?.message.contains("uid 2 already has 4") == true)
        #expect(limits.admit(uid: 1)?.message.contains("(maxConnectionsPerUID)") == true)
        // A third uid still gets in, up to the per-uid share of the reserve.
        #expect(admit(3, 1) == [nil])
        #expect(admit(3, 1) == [nil])
        #expect(limits.admit(uid: 3)?.message.contains("(reservedConnections)") == true)
        // A peer whose uid is unknown gets no reserved slot.
        #expect(limits.admit(uid: nil)?.message.contains("uid is unknown") == true)
        #expect(admit(4, 2) == [nil, nil])
        #expect(limits.admit(uid: 5)?.message.contains("(maxConnections)") == true)
        // A slot given back below the reserve is anyone's again.
        for _ in 0..<5 { limits.release(uid: 1) }
        #expect(admit(2, 1) == [nil])
    }

    @Test func theDefaultReserveIsAnEighthOfMaxConnections() throws {
        var configuration = DaemonConfiguration()
        #expect(configuration.reservedConnectionsInEffect == 64)
        configuration.maxConnections = 3
        configuration.maxConnectionsPerUID = 2
        #expect(configuration.reservedConnectionsInEffect == 0)
        try configuration.validate(file: "test")
        // With the defaults, two uids at 256 leave 64 slots for the others.
        let limits = ConnectionLimits(DaemonConfiguration())
        #expect((0..<256).allSatisfy { _ in limits.admit(uid: 1) == nil })
        #expect((0..<256).map { _ in limits.admit(uid: 2) }.count { $0 == nil } == 192)
        #expect((0..<4).allSatisfy { _ in limits.admit(uid: 3) == nil })
    }

    @Test(
        arguments: [
            (#"{"reservedConnections": 512}"#, "reservedConnections"),
            (#"{"maxConnections": 8, "maxConnectionsPerUID": 8, "reservedConnections": 8}"#, "reservedConnections"),
            (#"{"reservedConnections": -1}"#, "reservedConnections"),
            (#"{"reservedConnectionsPerUID": 0}"#, "reservedConnectionsPerUID"),
            (#"{"helloTimeoutSeconds": 0}"#, "helloTimeoutSeconds"),
            (#"{"helloTimeoutSeconds": 3601}"#, "helloTimeoutSeconds"),
            (#"{"idleTimeoutSeconds": -1}"#, "idleTimeoutSeconds"),
            (#"{"idleTimeoutSeconds": 86401}"#, "idleTimeoutSeconds"),
        ]
    )
    func invalidValuesAreRefusedByName(json: String, field: String) throws {
        let configuration = try JSONDecoder().decode(DaemonConfiguration.self, from: Data(json.utf8))
        #expect {
            try configuration.validate(file: "appflipd.json")
        } throws: { error in
            (error as? ConfigurationError)?.field == field
        }
    }

    @Test func theNewKeysAreRead() throws {
        let json = #"{"reservedConnections": 0, "reservedConnectionsPerUID": 8, "helloTimeoutSeconds": 0.5, "idleTimeoutSeconds": 0}"#
        let configuration = try JSONDecoder().decode(DaemonConfiguration.self, from: Data(json.utf8))
        try configuration.validate(file: "appflipd.json")
        #expect(configuration.reservedConnections == 0)
        #expect(configuration.reservedConnectionsPerUID == 8)
        #expect(configuration.helloTimeoutSeconds == 0.5)
        #expect(configuration.idleTimeoutSeconds == 0)
    }
}
