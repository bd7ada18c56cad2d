import Logging
import Testing

@testable import Systemd

@Suite struct JournalEntryTests {
    struct Refused: Error, CustomStringConvertible {
        var description: String { "refused Bearer abc.def" }
    }

    func entry(message: String = "handed off", metadata: Logger.Metadata) -> JournalEntry {
        .example(message: message, metadata: metadata)
    }

    @Test func carriesTheStandardFieldsFirst() {
        let fields = entry(metadata: [:]).fields
        #expect(
            fields == [
                JournalField(name: "MESSAGE", value: "handed off"),
                JournalField(name: "PRIORITY", value: "5"),
                JournalField(name: "SYSLOG_IDENTIFIER", value: "appflipd"),
                JournalField(name: "CODE_FILE", value: "AppFlipDaemon/Router.swift"),
                JournalField(name: "CODE_LINE", value: "42"),
                JournalField(name: "CODE_FUNC", value: "route(_:)"),
                JournalField(name: "SWIFT_LOG_LABEL", value: "appflipd.router"),
                JournalField(name: "SWIFT_LOG_SOURCE", value: "AppFlipDaemon"),
            ]
        )
    }

    @Test func turnsMetadataIntoSortedUpperCaseFields() {
        let fields = entry(metadata: [
            "handoff-id": "h-1",
            "app": "com.example.partner",
            "latencyMicroseconds": "\(1234)",
            "peer": ["uid": "1000", "pid": "77"],
            "opened": ["https://a/", "https://b/"],
        ]).fields.dropFirst(8)
        #expect(
            Array(fields) == [
                JournalField(name: "APPFLIP_APP", value: "com.example.partner"),
                JournalField(name: "APPFLIP_HANDOFF_ID", value: "h-1"),
                JournalField(name: "APPFLIP_LATENCY_MICROSECONDS", value: "1234"),
                JournalField(name: "APPFLIP_OPENED", value: "https://a/"),
                JournalField(name: "APPFLIP_OPENED", value: "https://b/"),
                JournalField(name: "APPFLIP_PEER_PID", value: "77"),
                JournalField(name: "APPFLIP_PEER_UID", value: "1000"),
            ]
        )
    }

    @Test func ordersNamesByTheirBytesAlsoWhenTheyShareTheirFirstBytes() {
        // After the `APPFLIP_` prefix, `PEER_UID_A` and `PEER_UID_B` share eight bytes and `HOP` is a prefix
        // of `HOP_COUNT`: the order falls back to the whole name, then to the value.
        let fields = entry(metadata: [
            "peer_uid_b": "2", "peer_uid_a": "1", "hop_count": "3", "hop": "0", "tags": ["b", "a", "B"], "a": "x",
        ]).fields.dropFirst(8)
        #expect(
            fields.map { "\($0.name)=\($0.value)" } == [
                "APPFLIP_A=x", "APPFLIP_HOP=0", "APPFLIP_HOP_COUNT=3", "APPFLIP_PEER_UID_A=1", "APPFLIP_PEER_UID_B=2",
                "APPFLIP_TAGS=B", "APPFLIP_TAGS=a", "APPFLIP_TAGS=b",
            ]
        )
    }

    @Test func neverCarriesACredential() {
        let fields = entry(
            message: "result https://h/a/com.google.OPA?code=SECRET1&state=s",
            metadata: [
                "code": "SECRET2",
                "oauth": ["refresh_token": "SECRET3", "client": "c"],
                "opened": ["https://h/?code=SECRET4"],
                "error_code": "no_app",
            ]
        ).fields
        for field in fields {
            #expect(!field.value.contains("SECRET"), "\(field.name)=\(field.value)")
        }
        #expect(fields.contains(JournalField(name: "APPFLIP_CODE", value: "[redacted:7B]")))
        #expect(fields.contains(JournalField(name: "APPFLIP_OAUTH_CLIENT", value: "c")))
        #expect(fields.contains(JournalField(name: "APPFLIP_ERROR_CODE", value: "no_app")))
    }

    @Test func handlerMergesMetadataAndErrorLikeSwiftLog() {
        var handler = JournalLogHandler(label: "t", identifier: "t", destination: .standardError, metadataProvider: nil)
        handler[metadataKey: "app"] = "from-handler"
        handler[metadataKey: "rule"] = "r1"
        let line = JournalLogHandler.standardErrorLine(
            .example(level: .error, message: "failed\nbadly", metadata: ["app": "from-call", "error.message": "\(Refused())"]),
            level: .error
        )
        #expect(
            line.hasSuffix(
                " error appflipd: failed\\nbadly APPFLIP_APP=from-call APPFLIP_ERROR_MESSAGE=refused Bearer [redacted:7B]\n"
            )
        )
        #expect(handler.metadata == ["app": "from-handler", "rule": "r1"])
    }

    /// Every kind of line break becomes `\n`, whether or not the line also has other characters whose
    /// UTF-8 starts like one (`¢` is C2 A2, `€` is E2 82 AC); a line without one is kept as it is.
    @Test(arguments: [
        ("plain ¢ € é", "plain ¢ € é"),
        ("a\nb", "a\\nb"), ("a\r\nb", "a\\nb"), ("a\rb", "a\\nb"), ("a\u{0B}b", "a\\nb"), ("a\u{0C}b", "a\\nb"),
        ("a\u{85}b", "a\\nb"), ("a\u{2028}b", "a\\nb"), ("€\u{2029}¢", "€\\n¢"),
    ])
    func standardErrorLinesHaveNoLineBreak(message: String, shown: String) {
        let line = JournalLogHandler.standardErrorLine(entry(message: message, metadata: [:]), level: .notice)
        #expect(line.hasSuffix(" notice appflipd: \(shown)\n"))
        #expect(line.dropLast().allSatisfy { !$0.isNewline })
    }

    /// The word-at-a-time scan finds what a byte-by-byte one finds: every byte value at every position of
    /// a line longer than a word, and of one shorter.
    @Test(arguments: [5, 21])
    func lineBreakScanAgreesWithBytes(length: Int) {
        func startsBreak(_ byte: UInt8) -> Bool { (0x0A...0x0D).contains(byte) || byte == 0xC2 || byte == 0xE2 }
        for value in UInt8.min...UInt8.max {
            for position in 0..<length {
                var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: length)
                bytes[position] = value
                let found = bytes.withUnsafeBufferPointer { JournalLogHandler.mayBreakLine($0) }
                #expect(found == startsBreak(value), "byte \(value) at \(position)")
            }
        }
    }
}
