import AppFlipProtocol
import FoundationEssentials
import Testing

@testable import AppFlipProtocol

/// A `register` line over ``RegisterRequest/maxLineBytes`` is refused by its size before it is parsed.
@Suite struct OversizedRegistrationTests {
    /// A register line of about `bytes`, whose association ends in `tail`.
    static func registerLine(id: String = "7", bytes: Int, tail: String = "true") -> [UInt8] {
        let paths = String(repeating: #"{"/":"/p/*","comment":"a \"quoted\" ] } [ {"},"#, count: bytes / 48)
        let association = #"{"applinks":{"details":[{"appIDs":["T.a"],"components":["# + paths + #"{"/":"/"}]}]},"x":"# + tail + "}"
        return Array(#"{"id":\#(id),"op":"register","appID":"T.a","domains":["applinks:a.test"],"association":\#(association)}"#.utf8)
    }

    @Test func aHugeRegistrationIsRefusedUnread() {
        // The association's last value is not JSON: a parser would say `invalid_json`; the size check says
        // `invalid_association` because it never reads that far.
        let line = Self.registerLine(bytes: 9 << 20, tail: "tru")
        guard case .failure(let failure) = Request.decode(line: line) else {
            Issue.record("a 9 MB registration was accepted")
            return
        }
        #expect(failure.error.code == .invalidAssociation)
        #expect(failure.error.field == "association")
        #expect(failure.error.message.contains("refused unread"))
        #expect(failure.id == .number(7))
        #expect(failure.op == .register)
    }

    @Test func aRegistrationUnderTheLimitIsParsed() {
        let line = Self.registerLine(bytes: 100 << 10)
        #expect(line.count < RegisterRequest.maxLineBytes)
        guard case .success(let request) = Request.decode(line: line), case .register(let registration) = request.body else {
            Issue.record("a 100 KB registration was not decoded")
            return
        }
        #expect(registration.appID == "T.a")
    }

    /// A line of exactly ``RegisterRequest/maxLineBytes`` is parsed; one byte more is refused by its size.
    @Test func theSizeCheckStartsOneBytePastTheLimit() throws {
        let short = Self.registerLine(bytes: 150 << 10)
        let padding = RegisterRequest.maxLineBytes - short.count
        #expect(padding > 0)
        // Whitespace after the object: the same request, spelled longer.
        let atTheLimit = short + Array(repeating: UInt8(ascii: " "), count: padding)
        guard case .success(let request) = Request.decode(line: atTheLimit), case .register = request.body else {
            Issue.record("a register line of exactly \(RegisterRequest.maxLineBytes) bytes was not decoded")
            return
        }
        guard case .failure(let failure) = Request.decode(line: atTheLimit + [UInt8(ascii: " ")]) else {
            Issue.record("a register line one byte over the limit was decoded")
            return
        }
        #expect(failure.error.message.contains("refused unread"))
    }

    /// A line nested 512 levels deep, the request itself included, is read; one level more is `invalid_json`.
    @Test func nestingHoldsAt512LevelsAndNotOneMore() throws {
        func line(levels: Int) -> [UInt8] {
            let arrays = levels - 1
            return Array((#"{"id":1,"op":"apps","deep":"# + String(repeating: "[", count: arrays) + String(repeating: "]", count: arrays) + "}").utf8)
        }
        #expect(try Request.decode(line: line(levels: 512)).get().body == .apps)
        guard case .failure(let failure) = Request.decode(line: line(levels: 513)) else {
            Issue.record("a line 513 levels deep was decoded")
            return
        }
        #expect(failure.error.code == .invalidJSON)
        #expect(failure.id == nil)
    }

    @Test func otherOpsAreNotLimitedByTheRegistrationSize() {
        let userInfo = String(repeating: "x", count: 300 << 10)
        let line = Array(
            #"{"id":"o","op":"open","activity":{"activityType":"NSUserActivityTypeBrowsingWeb","webpageURL":"https://a.test/","userInfo":{"k":"\#(userInfo)"}}}"#
                .utf8
        )
        guard case .success(let request) = Request.decode(line: line), case .open = request.body else {
            Issue.record("a 300 KB open was refused")
            return
        }
    }

    /// The envelope scan agrees with the full parser on `id` and `op` wherever both read the line.
    @Test(arguments: [
        #"{"id":1,"op":"apps"}"#,
        #"{"a":[1,2,{"b":"]}\"["}],"op":"watch","id":"x\"y"}"#,
        #" { "x" : -1.5e3 , "y" : null , "z" : true , "op" : "hello" , "version" : 1 , "id" : 0 } "#,
        #"{"nested":[[[[{"deep":[[]]}]]]],"id":42,"op":"explain","url":"https://a.test/"}"#,
        // Keys that are not plain ASCII match no known key and are stepped over.
        #"{"\/op":"open","é":1,"i\"d":2,"a\tb":3,"id":7,"op":"apps"}"#,
    ])
    func theEnvelopeScanAgreesWithTheParser(line: String) throws {
        let bytes = Array(line.utf8)
        let envelope = try #require(bytes.withUnsafeBytes { FastJSONScanner.envelope(of: $0) })
        let request = try Request.decode(line: bytes).get()
        #expect(envelope.id == request.id)
        #expect(envelope.op == request.body.op.rawValue)
    }

    @Test(arguments: [#"{"id":1,"op":"apps""#, #"{"a":[1,2}"#, #"{"a":"x}"#, "[1]", #"{"a":1 2}"#, #"{"a":}"#])
    func theEnvelopeScanDeclinesWhatIsNotAnObject(line: String) {
        #expect(Array(line.utf8).withUnsafeBytes { FastJSONScanner.envelope(of: $0) } == nil)
    }
}
