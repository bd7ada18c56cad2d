import AppFlipProtocol
import Testing

/// `hello`'s `version` is the protocol's one integer field: a number that is no integer is an
/// `invalid_request` naming it, as a string there is, not a line that "is not valid JSON".
@Suite struct IntegerFieldTests {
    @Test(arguments: ["1.5", "1e30", "99999999999999999999", "\"1\""])
    func aVersionThatIsNoIntegerIsRefusedAtItsField(value: String) throws {
        let line = Array(#"{"id":7,"op":"hello","version":\#(value)}"#.utf8)
        guard case .failure(let failure) = Request.decode(line: line) else {
            Issue.record("version \(value) was accepted")
            return
        }
        #expect(failure.id == .number(7))
        #expect(failure.op == .hello)
        #expect(failure.error.code == .invalidRequest)
        #expect(failure.error.field == "version")
        #expect(failure.error.message == "`version` must be an integer")
    }

    @Test func aMissingVersionIsNamed() throws {
        guard case .failure(let failure) = Request.decode(line: Array(#"{"id":7,"op":"hello"}"#.utf8)) else {
            Issue.record("a hello without a version was accepted")
            return
        }
        #expect(failure.error.field == "version")
        #expect(failure.error.message == "`version` is missing")
    }

    @Test func aVersionWithAZeroFractionIsThatVersion() throws {
        let request = try Request.decode(line: Array(#"{"id":7,"op":"hello","version":1.0}"#.utf8)).get()
        #expect(request.body == .hello(HelloRequest(version: 1)))
    }
}
