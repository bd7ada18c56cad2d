import AppFlipCore
import Testing

@testable import AppFlipProtocol

/// The hot-path decoder must never disagree with the `JSONDecoder` reference: whenever it returns a
/// request, the reference returns the same one; for anything else it steps aside.
@Suite struct RequestFastPathTests {
    static let handled = [
        #"{"id":1,"op":"open","activity":{"activityType":"NSUserActivityTypeBrowsingWeb","webpageURL":"https://a.test/x?y=1"},"options":{"universalLinksOnly":true}}"#,
        #" { "op" : "open" , "id" : "r-1" , "activity" : { "webpageURL" : "https://a.test/" , "activityType" : "t" } } "#,
        #"{"id":-42,"op":"open","activity":{"activityType":"t"},"options":{}}"#,
        #"{"id":9223372036854775807,"op":"open","activity":{"activityType":"t\"q\\\/\n\t","webpageURL":"https://é.test/ü"}}"#,
        // An id is its value however it is spelled (RequestIDTests has the ends of the range).
        #"{"id":1.0,"op":"open","activity":{"activityType":"t"}}"#,
        #"{"id":1e2,"op":"open","activity":{"activityType":"t"}}"#,
        #"{"id":-9223372036854775808,"op":"open","activity":{"activityType":"t"}}"#,
        #"{"id":0,"op":"answer","handoff":18446744073709551615,"continue":false}"#,
        #"{"continue":true,"handoff":3,"id":2,"op":"answer","open":[]}"#,
        #"{"continue":true,"open":[],"handoff":3,"op":"answer","id":2}"#,
        #"{"id":2,"op":"answer","handoff":3,"continue":true,"open":[{"url":"https://g.test/?code=1","options":{"universalLinksOnly":true}},{"url":"https://h.test/"}]}"#,
        // Around the activity type the scanner hands out as the literal itself: a prefix, a longer type,
        // an escaped spelling of it, and other whitespace.
        #"{"id":1,"op":"open","activity":{"activityType":"NSUserActivityTypeBrowsingWe"}}"#,
        #"{"id":1,"op":"open","activity":{"activityType":"NSUserActivityTypeBrowsingWebX"}}"#,
        #"{"id":1,"op":"open","activity":{"activityType":"NSUserActivityTypeBrowsing\/Web"}}"#,
        #"{"id":1,"op":"open","activity":{"activityType":"NSUserActivityTypeBrowsingWeb\/"}}"#,
        #"{"id":1,"op":"open","activity":{"activityType" : "NSUserActivityTypeBrowsingWeb" }}"#,
    ]

    static let steppedAside = [
        #"{"id":1,"op":"hello","version":1}"#,
        #"{"id":1,"op":"open","activity":{"activityType":"t","userInfo":{"a":1}}}"#,
        #"{"id":1,"op":"open","activity":{"activityType":"t"},"extra":true}"#,
        #"{"id":1,"op":"open","activity":{"activityType":"t\u00e9"}}"#,
        #"{"id":01,"op":"open","activity":{"activityType":"t"}}"#,
        #"{"id":9223372036854775808,"op":"open","activity":{"activityType":"t"}}"#,
        #"{"id":2.5,"op":"open","activity":{"activityType":"t"}}"#,
        #"{"id":- 1,"op":"open","activity":{"activityType":"t"}}"#,
        "{\"id\":-\n\n3,\"op\":\"open\",\"activity\":{\"activityType\":\"t\"}}",
        #"{"id":1,"id":2,"op":"open","activity":{"activityType":"t"}}"#,
        #"{"id":1,"op":"open","activity":{"activityType":"t","webpageURL":null}}"#,
        #"{"id":1,"op":"open","activity":{"activityType":"t"},"options":null}"#,
        #"{"id":1,"op":"open","activity":{"activityType":"t"},"options":{"universalLinksOnly":"yes"}}"#,
        #"{"id":1,"op":"open"}"#,
        #"{"id":1,"op":"answer","handoff":-1,"continue":true}"#,
        #"{"id":1,"op":"answer","handoff":1,"continue":true,"open":[{"options":{}}]}"#,
        #"{"id":1,"op":"open","activity":{"activityType":"t"}} trailing"#,
        #"{"id":1,"op":"open","activity":{"activityType":"t"}"#,
        #"{"op":"open","activity":{"activityType":"t"}}"#,
        #"[1]"#,
        "",
        "{\"id\":1,\"op\":\"open\",\"activity\":{\"activityType\":\"a\tb\"}}",
        // A key spelled with an escape or outside ASCII is no key the fast path knows.
        #"{"id":1,"o\/p":"open","activity":{"activityType":"t"}}"#,
        #"{"id":1,"op":"open","activit\u0079":{"activityType":"t"}}"#,
        #"{"id":1,"op":"open","activity":{"activityType":"t"},"é":1}"#,
        #"{"i\"d":1,"op":"open","activity":{"activityType":"t"}}"#,
        // The literal, cut short by the end of the line.
        #"{"id":1,"op":"open","activity":{"activityType":"NSUserActivityTypeBrowsingWeb""#,
        #"{"id":1,"op":"open","activity":{"activityType":"NSUserActivityTypeBrowsingWeb"#,
    ]

    @Test(arguments: handled)
    func plainHotRequestsTakeTheFastPathAndAgreeWithTheReference(_ line: String) throws {
        let bytes = Array(line.utf8)
        let fast = bytes.withUnsafeBytes { RequestFastPath.decode($0) }
        let reference = try Request.decodeWithJSONDecoder(line: bytes).get()
        #expect(fast == reference)
    }

    @Test(arguments: steppedAside)
    func everythingElseGoesToTheReference(_ line: String) {
        let bytes = Array(line.utf8)
        #expect(bytes.withUnsafeBytes { RequestFastPath.decode($0) } == nil)
        #expect(Request.decode(line: bytes) == Request.decodeWithJSONDecoder(line: bytes))
    }

    @Test func invalidUTF8StepsAside() {
        let bytes = Array(#"{"id":1,"op":"open","activity":{"activityType":"t"#.utf8) + [0xC3, 0x28] + Array(#""}}"#.utf8)
        #expect(bytes.withUnsafeBytes { RequestFastPath.decode($0) } == nil)
        guard case .failure(let failure) = Request.decode(line: bytes) else {
            Issue.record("invalid UTF-8 was accepted")
            return
        }
        #expect(failure.error.code == .invalidUTF8)
    }

    @Test func theDaemonsBufferShapeReachesTheFastPath() {
        let line = Array(Self.handled[0].utf8)
        let viaRawBuffer = line.withUnsafeBytes { raw in raw.withContiguousStorageIfAvailable { _ in true } }
        #expect(viaRawBuffer == true)
    }
}
