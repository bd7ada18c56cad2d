import AppFlipCore
import Testing

/// The result contract as the Google app reads it: one rule per broken result.
@Suite struct AndroidFlipResultCheckerTests {
    @Test func theThreeAnswersKeepTheContract() {
        #expect(AndroidFlipResultChecker.check(AndroidAppFlip.code("c")).outcome == .code("c"))
        #expect(AndroidFlipResultChecker.check(AndroidAppFlip.canceled).outcome == .canceled)
        let error = AndroidAppFlip.error(.unrecoverable, code: 13, description: "denied")
        #expect(AndroidFlipResultChecker.check(error).outcome == .error(.unrecoverable, code: 13, description: "denied"))
    }

    @Test(arguments: [
        (IntentResult(resultCode: -1, extras: ["AUTHORIZATION_CODE": .string("")]), "RESULT_OK without a non-empty AUTHORIZATION_CODE"),
        (IntentResult(resultCode: -1), "RESULT_OK without a non-empty AUTHORIZATION_CODE"),
        (IntentResult(resultCode: -1, extras: ["AUTHORIZATION_CODE": .int(1)]), "AUTHORIZATION_CODE is a int, not a String"),
        (IntentResult(resultCode: -2, extras: ["ERROR_TYPE": .int(4), "ERROR_CODE": .int(1)]), "ERROR_TYPE 4 is none of"),
        (IntentResult(resultCode: -2, extras: ["ERROR_TYPE": .string("1"), "ERROR_CODE": .int(1)]), "no int ERROR_TYPE (it is a string)"),
        (IntentResult(resultCode: -2, extras: ["ERROR_TYPE": .int(1)]), "no int ERROR_CODE"),
        (IntentResult(resultCode: 0, extras: ["AUTHORIZATION_CODE": .string("c")]), "RESULT_CANCELED carries AUTHORIZATION_CODE"),
        (IntentResult(resultCode: 1), "result code 1 is none of"),
    ])
    func aBrokenResultSaysNothingAndNamesItsRule(result: IntentResult, rule: String) {
        let verdict = AndroidFlipResultChecker.check(result)
        #expect(verdict.outcome == nil)
        #expect(verdict.violations.count == 1)
        #expect(verdict.violations.first?.contains(rule) == true, "\(verdict.violations)")
        #expect(!verdict.violations.joined().contains("\"c\""))
    }
}
