import AASACorpora
import AppFlipCore
import AppFlipTestSupport
import Testing

/// The whole AASA conformance corpus through the `appflip aasa match --stdin` executable (AppFlipCoreTests'
/// suite of the same name runs it through the library). Anything short of 140/140 fails.
@Suite struct AASAConformanceTests {
    static let expectedCaseCount = 140

    @Test func everyMatchingCasePassesThroughTheCommandLine() async throws {
        let cases = AASAConformanceCorpus.shared.matching
        var input = ""
        for (id, testCase) in cases.enumerated() {
            let line = JSONValue.object([
                "id": .number(Double(id)), "aasa": testCase.aasa, "domain": .string(testCase.domain),
                "appId": .string(testCase.appId), "url": .string(testCase.url),
            ])
            input += line.compactJSON + "\n"
        }
        let run = try await TestCommand.run("appflip", ["aasa", "match", "--stdin"], input: input)

        var decisions: [Int: String] = [:]
        for line in run.standardOutput.split(separator: "\n") {
            let answer = try JSONValue(parsing: Array(line.utf8))
            guard case .object(let members) = answer, case .number(let id)? = members["id"],
                case .string(let decision)? = members["decision"]
            else {
                Issue.record("not an answer: \(line)")
                continue
            }
            #expect(decisions.updateValue(decision, forKey: Int(id)) == nil, "case \(Int(id)) answered twice")
        }
        var failures: [String] = []
        for (id, testCase) in cases.enumerated() where decisions[id] != testCase.expect {
            failures.append("\(testCase.name): expected \(testCase.expect), got \(decisions[id] ?? "no answer")")
        }
        print("AASA conformance: \(cases.count - failures.count)/\(cases.count)")
        #expect(cases.count == Self.expectedCaseCount)
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
        #expect(run.status == 0, "stderr: \(run.standardError)")
    }
}
