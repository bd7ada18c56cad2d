import Testing

@testable import Systemd

@Suite struct JournalFieldNameTests {
    let mapping = JournalFieldName()

    @Test(arguments: [
        ("handoff-id", "APPFLIP_HANDOFF_ID"),
        ("handoff_id", "APPFLIP_HANDOFF_ID"),
        ("handoffID", "APPFLIP_HANDOFF_ID"),
        ("HandoffId", "APPFLIP_HANDOFF_ID"),
        ("app", "APPFLIP_APP"),
        ("peer.uid", "APPFLIP_PEER_UID"),
        ("peerPID", "APPFLIP_PEER_PID"),
        ("latency-ms", "APPFLIP_LATENCY_MS"),
        ("URLPath", "APPFLIP_URL_PATH"),
        ("error.message", "APPFLIP_ERROR_MESSAGE"),
        ("sha256sum", "APPFLIP_SHA256SUM"),
        ("2fa", "APPFLIP_2FA"),
        ("_private", "APPFLIP_PRIVATE"),
        ("a  b", "APPFLIP_A_B"),
        ("héllo", "APPFLIP_H_LLO"),
        ("---", "APPFLIP_UNNAMED"),
        ("", "APPFLIP_UNNAMED"),
    ])
    func mapsKeys(key: String, expected: String) {
        #expect(mapping.fieldName(forKey: key) == expected)
    }

    @Test func cutsLongNamesToJournaldsLimit() {
        let name = mapping.fieldName(forKey: String(repeating: "x", count: 200))
        #expect(name.utf8.count == JournalFieldName.maximumLength)
        #expect(JournalFieldName.isValid(name))
    }

    @Test(arguments: ["", "\0", "🙂", "MESSAGE", "_SYSTEMD_UNIT", "9lives", "a\nb=c", "ÅÄÖ", " ", "x.y.z", "PRIORITY=0"])
    func everyMappedNameIsValid(key: String) {
        let name = mapping.fieldName(forKey: key)
        #expect(JournalFieldName.isValid(name), "\(key) → \(name)")
        #expect(name.hasPrefix("APPFLIP_"))
    }

    @Test(arguments: [
        ("MESSAGE", true), ("APPFLIP_APP", true), ("A", true), ("A9_", true),
        ("_PID", false), ("9A", false), ("lower", false), ("A-B", false), ("", false),
        (String(repeating: "A", count: 65), false),
    ])
    func validatesNames(name: String, valid: Bool) {
        #expect(JournalFieldName.isValid(name) == valid)
    }

    @Test func honoursAnotherPrefix() {
        #expect(JournalFieldName(prefix: "PROBE_").fieldName(forKey: "requestID") == "PROBE_REQUEST_ID")
    }
}
