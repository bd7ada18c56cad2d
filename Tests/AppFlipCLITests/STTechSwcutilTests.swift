import AASACorpora
import AppFlipCore
import AppFlipTestSupport
import Testing

/// st-tech/universal-links-test's 17 cases (`STTechSwcutilCorpus`), whose CI checks them against Apple's
/// `swcutil`, through `appflip aasa match --stdin` (AppFlipCoreTests' suite of the same name runs them through
/// the library).
@Suite struct STTechSwcutilTests {
    @Test func all17AgreeWithSwcutilThroughTheCommandLine() async throws {
        let (lines, expected) = try STTechSwcutilCorpus.load()
        let run = try await TestCommand.run("appflip", ["aasa", "match", "--stdin"], input: lines.joined(separator: "\n") + "\n")
        #expect(run.status == 0, "\(run.standardError)")
        var agreed = 0
        for answer in run.standardOutput.split(separator: "\n") {
            guard case .object(let fields) = try JSONValue(parsing: Array(answer.utf8)), case .number(let id)? = fields["id"],
                case .string(let decision)? = fields["decision"]
            else { continue }
            #expect(decision == expected[Int(id)], "case \(Int(id))")
            if decision == expected[Int(id)] { agreed += 1 }
        }
        print("st-tech swcutil cases (appflip aasa match --stdin): \(agreed)/\(expected.count)")
        #expect(agreed == 17)
    }
}
