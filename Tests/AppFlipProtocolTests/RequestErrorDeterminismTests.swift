import AppFlipProtocol
import Testing

/// A request with several bad fields gets the same error every time: which one a reply names must not depend
/// on a dictionary's order (found by Tests/Fuzz/FuzzRequest).
@Suite struct RequestErrorDeterminismTests {
    @Test func ofSeveralBadMembersTheReplyAlwaysNamesTheFirstByKey() {
        // Raw control characters make each member's string undecodable, so every member fails.
        let members = (0..<8).map { "\"k\($0)\":\"\u{1}\"" }.joined(separator: ",")
        let line = Array(#"{"id":1,"op":"register","appID":"T.app","domains":["applinks:a.test"],"components":[{\#(members)}]}"#.utf8)
        var fields: Set<String?> = []
        for _ in 0..<40 {
            guard case .failure(let failure) = Request.decode(line: line) else {
                Issue.record("a line with undecodable members was accepted")
                return
            }
            fields.insert(failure.error.field)
        }
        #expect(fields == ["components[0].k0"])
    }

    @Test func ofSeveralBadUserInfoMembersTheReplyAlwaysNamesTheFirstByKey() {
        let members = (0..<8).map { "\"k\($0)\":1." }.joined(separator: ",")
        let line = Array(#"{"id":1,"op":"open","activity":{"activityType":"t","userInfo":{\#(members)}}}"#.utf8)
        var fields: Set<String?> = []
        for _ in 0..<40 {
            guard case .failure(let failure) = Request.decode(line: line) else {
                Issue.record("a line with undecodable members was accepted")
                return
            }
            fields.insert(failure.error.field)
        }
        #expect(fields == ["activity.userInfo.k0"])
    }
}
