/// The Google app's check of what the partner's App Flip activity returned (App Flip for Android,
/// "Response data"): `RESULT_OK` (-1) with a non-empty `String` `AUTHORIZATION_CODE`; -2 with an `int`
/// `ERROR_TYPE` of 1, 2 or 3, an `int` `ERROR_CODE` and an optional `String` `ERROR_DESCRIPTION`; or
/// `RESULT_CANCELED` (0). A code on any other answer, and any other result code, break it.
public enum AndroidFlipResultChecker {
    /// What the result says, once it keeps the contract.
    public enum Outcome: Sendable, Hashable {
        case code(String)
        case error(AndroidAppFlip.ErrorType, code: Int32, description: String?)
        case canceled
    }

    /// The result's outcome (nil when it breaks the contract so that it says nothing), the rules it
    /// breaks, and the extras the contract does not name (Google ignores them).
    public struct Verdict: Sendable, Hashable {
        public var outcome: Outcome?
        public var violations: [String]
        public var unknownExtras: [String]
    }

    private static let known: Set<String> = [
        AndroidAppFlip.authorizationCode, AndroidAppFlip.errorType, AndroidAppFlip.errorCode, AndroidAppFlip.errorDescription,
    ]

    /// Checks `result`; the violations name the rule and never a code's value.
    public static func check(_ result: IntentResult) -> Verdict {
        var violations: [String] = []
        let extras = result.extras
        let unknown = extras.keys.filter { !known.contains($0) }.sorted()
        let code = extras[AndroidAppFlip.authorizationCode]
        var outcome: Outcome?
        switch result.resultCode {
        case IntentResult.ok:
            if let value = code?.string, !value.isEmpty {
                outcome = .code(value)
            } else if let code, code.string == nil {
                violations.append("RESULT_OK's AUTHORIZATION_CODE is a \(code.typeName), not a String")
            } else {
                violations.append("RESULT_OK without a non-empty AUTHORIZATION_CODE: the Google app gets no code to exchange")
            }
            for name in [AndroidAppFlip.errorType, AndroidAppFlip.errorCode] where extras[name] != nil {
                violations.append("RESULT_OK carries \(name), which belongs to an error answer (-2) only")
            }
        case AndroidAppFlip.resultError:
            if code != nil { violations.append("the error answer (-2) carries AUTHORIZATION_CODE, which belongs to RESULT_OK only") }
            let type = extras[AndroidAppFlip.errorType]
            let errorCode = extras[AndroidAppFlip.errorCode]
            let description = extras[AndroidAppFlip.errorDescription]
            var parsed: AndroidAppFlip.ErrorType?
            if let value = type?.int {
                parsed = AndroidAppFlip.ErrorType(rawValue: value)
                if parsed == nil { violations.append("ERROR_TYPE \(value) is none of 1 (recoverable), 2 (unrecoverable), 3 (invalid request)") }
            } else {
                violations.append("the error answer (-2) has no int ERROR_TYPE" + (type.map { " (it is a \($0.typeName))" } ?? ""))
            }
            if errorCode?.int == nil {
                violations.append("the error answer (-2) has no int ERROR_CODE" + (errorCode.map { " (it is a \($0.typeName))" } ?? ""))
            }
            if let description, description.string == nil {
                violations.append("ERROR_DESCRIPTION is a \(description.typeName), not a String")
            }
            if let parsed, let number = errorCode?.int, violations.isEmpty {
                outcome = .error(parsed, code: number, description: description?.string)
            }
        case IntentResult.canceled:
            if code != nil {
                violations.append("RESULT_CANCELED carries AUTHORIZATION_CODE, which belongs to RESULT_OK only")
            } else {
                outcome = .canceled
            }
        default:
            violations.append("result code \(result.resultCode) is none of -1 (RESULT_OK), -2 (error), 0 (RESULT_CANCELED)")
        }
        return Verdict(outcome: violations.isEmpty ? outcome : nil, violations: violations, unknownExtras: unknown)
    }
}
