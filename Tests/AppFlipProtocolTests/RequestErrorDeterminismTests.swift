import AppFlipProtocol
import Testing

/// A request with several bad fields gets the same error every time: which one a reply names must not depend
/// on a dictionary's order (found by Tests/Fuzz/FuzzRequest).
@Suite struct RequestErrorDeterminismTests {
    /// Eight members `k0`…`k7` with an undecodable value each, and the field the reply must name.
    static let cases: [(template: String, value: String, field: String)] = [
        // Raw control characters make each member's string undecodable.
        (#"{"id":1,"op":"register","appID":"T.app","domains":["applinks:a.test"],"components":[{MEMBERS}]}"#, "\"\u{1}\"", "components[0].k0"),
        (#"{"id":1,"op":"open","activity":{"activityType":"t","userInfo":{MEMBERS}}}"#, "1.", "activity.userInfo.k0"),
    ]

    @Test(arguments: cases)
    func ofSeveralBadMembersTheReplyAlwaysNamesTheFirstByKey(template: String, value: String, field: String) throws {
        let members = (0..<8).map { "\"k\($0)\":\(value)" }.joined(separator: ",")
        let line = Array(template.replacing("MEMBERS", with: members).utf8)
        var fields: Set<String?> = []
        for _ in 0..<40 {
            guard case .failure(let failure) = Request.decode(line: line) else {
                Issue.record("a line with undecodable members was accepted")
                return
            }
            fields.insert(failure.error.field)
        }
        #expect(fields == [field])
    }
}
