import AASACorpora
import AppFlipCore
import Foundation
import Testing

@testable import AppFlipCore

/// The whole corpus through the library (AppFlipCLITests' suite of the same name runs it through `appflip aasa
/// match --stdin`). Anything short of 140/140 fails.
@Suite struct AASAConformanceTests {
    static let expectedCaseCount = 140

    /// The library's decision for one case: the host check through `AssociatedDomain` (an empty domain skips
    /// it, as the corpus's protocol says), then the file's own rules.
    static func decide(_ testCase: AASAConformanceCorpus.MatchingCase) throws -> String {
        let file = try AssociationFile(document: testCase.aasa)
        let url = try RawURL(testCase.url)
        if !testCase.domain.isEmpty, try !AssociatedDomain("applinks:" + testCase.domain).matches(url) {
            return MatchOutcome.noMatch.rawValue
        }
        return file.decide(appID: testCase.appId, url: url).outcome.rawValue
    }

    @Test func everyMatchingCasePassesThroughTheLibrary() throws {
        let cases = AASAConformanceCorpus.shared.matching
        var failures: [String] = []
        for testCase in cases {
            let decision = (try? Self.decide(testCase)) ?? "error"
            if decision != testCase.expect {
                failures.append("\(testCase.name): expected \(testCase.expect), got \(decision)")
            }
        }
        print("AASA conformance (library): \(cases.count - failures.count)/\(cases.count)")
        #expect(cases.count == Self.expectedCaseCount)
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
    }

    @Test(arguments: AASAConformanceCorpus.shared.validation)
    func validationCaseProducesExactlyItsCodes(_ testCase: AASAConformanceCorpus.ValidationCase) {
        let codes = AssociationFile.validate(document: testCase.aasa).map(\.code.rawValue)
        #expect(codes.sorted() == testCase.expectCodes.sorted())
    }

    @Test func thereAreThirteenValidationCases() {
        #expect(AASAConformanceCorpus.shared.validation.count == 13)
    }

    /// `swcutil-gap-probes.tsv` records whole documents (defaults at the document and details levels) that the
    /// matching cases do not cover: column 3 the document, column 4 the URL, column 6 swcutil's verdict.
    @Test func swcutilGapProbesAgree() throws {
        let text = try String(contentsOf: AASAConformanceCorpus.directory.appendingPathComponent("swcutil-gap-probes.tsv"), encoding: .utf8)
        var checked = 0
        for row in text.split(separator: "\n") {
            let columns = row.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard columns.count >= 6, columns[2].hasPrefix("{\"applinks\"") else { continue }
            let verdict = columns[5]
            let expected: MatchOutcome =
                verdict.contains("blocked match")
                ? .exclude
                : verdict.contains("matched.") ? .match : .noMatch
            let file = try AssociationFile(json: Array(columns[2].utf8))
            let decision = file.decide(appID: "ABCDE12345.com.example.app", url: try RawURL(columns[3]))
            #expect(decision.outcome == expected, "\(columns[1]): \(columns[3])")
            checked += 1
        }
        #expect(checked == 9)
    }
}
