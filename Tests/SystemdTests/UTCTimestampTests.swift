import Glibc
import Testing

@testable import Systemd

@Suite struct UTCTimestampTests {
    @Test func formatsEachSecondAndReusesIt() {
        var timestamp = UTCTimestamp()
        #expect(String(decoding: timestamp.bytes(for: 0), as: UTF8.self) == "1970-01-01T00:00:00Z")
        #expect(String(decoding: timestamp.bytes(for: 1_795_537_522), as: UTF8.self) == "2026-11-24T16:25:22Z")
        #expect(String(decoding: timestamp.bytes(for: 1_795_537_522), as: UTF8.self) == "2026-11-24T16:25:22Z")
        #expect(String(decoding: timestamp.bytes(for: 1_795_537_523), as: UTF8.self) == "2026-11-24T16:25:23Z")
    }

    @Test(arguments: ["", "short", "a string longer than the fifteen bytes kept inline", "caf\u{E9} \u{1F600}"])
    func appendsAStringsUTF8Bytes(text: String) {
        var bytes: [UInt8] = [0x2A]
        bytes.appendUTF8(text)
        #expect(bytes == [0x2A] + Array(text.utf8))
    }
}
