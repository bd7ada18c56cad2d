import AppFlipCore
import Testing

/// Google's Digital Asset Links compatibility suite (`Corpora/dal-compat`, Apache-2.0), every case run
/// through the Google-verifier mode. Every case applies: query parsing (the same relation, fingerprint,
/// package and site rules the statements obey), web and APK statement lists, matching and includes. The
/// API's error codes are held exactly to each case's: the ones `assetlinks check` names.
@Suite struct DALCompatibilityTests {
    static let cases = AndroidCorpus.lines("dal-compat/cases.jsonl")

    /// The cases whose expectation the Google-verifier mode does not meet, each with why.
    static let expectedDisagreements: [String: String] = [
        // The suite contradicts itself on an empty list: comptest1101/list6 expects SUCCESS for the same
        // request (a site, no relation) on the same body `[]` for which these two expect FETCH_ERROR "No
        // statements were found", and every comptest1001/1101 case serves `[]` with SUCCESS. An empty list is
        // a valid statement list that delegates nothing; the verifier treats it so, and the loader warns
        // (DAL005).
        "comptest2002/list1": "an empty statement list is not an error (comptest1101/list6 says SUCCESS)",
        "comptest3002/list1": "the same for an APK's empty statement list",
        // The query is refused for its relation `delegate_permission/*` before anything is fetched, as
        // expected (QUERY_PARSING_ERROR); the suite also lists ERROR_CODE_MALFORMED_CONTENT, a content error
        // that no fetch made, so the runner reports none.
        "comptest4301/check3": "a query parsing error carries no content error code",
    ]

    @Test func everyCaseAgreesExceptTheExplainedOnes() {
        #expect(Self.cases.count == 383)
        var disagreements: [String: String] = [:]
        for testCase in Self.cases {
            let answer = DALCompatibilityRunner(testCase: testCase).run()
            let expected = DALCompatibilityRunner.expected(testCase)
            let agrees =
                answer.outcome == expected.outcome
                && (expected.outcome == "QUERY_PARSING_ERROR" || (answer.check == expected.check && answer.list == expected.list))
                && expected.errors == answer.errors
            if !agrees {
                disagreements[testCase["id"]!.stringValue!] = "expected \(expected), answered \(answer)"
            }
        }
        let agreeing = Self.cases.count - disagreements.count
        #expect(agreeing == Self.cases.count - Self.expectedDisagreements.count)
        #expect(Set(disagreements.keys) == Set(Self.expectedDisagreements.keys), "\(disagreements.sorted { $0.key < $1.key })")
    }
}
