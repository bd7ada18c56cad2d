/// App Flip for Android's intent contract (developers.google.com/identity/account-linking/app-flip-android):
/// the extras the Google app sends, and the result the partner's activity returns with `setResult`.
public enum AndroidAppFlip {
    /// `CLIENT_ID`, a `String`: the partner's OAuth client id.
    public static let clientID = "CLIENT_ID"
    /// `SCOPE`, a `String[]`: the scopes asked for. Read with `getStringExtra` it is null (Google's own
    /// sample does that, and loses the scopes).
    public static let scope = "SCOPE"
    /// `REDIRECT_URI`, a `String`: sent to the partner's authorization server with the code request, and
    /// by Google's server with the code exchange.
    public static let redirectURI = "REDIRECT_URI"
    /// `AUTHORIZATION_CODE`, a non-empty `String`, with `RESULT_OK` only.
    public static let authorizationCode = "AUTHORIZATION_CODE"
    /// `ERROR_TYPE`, an `int` (``ErrorType``), with ``resultError`` only.
    public static let errorType = "ERROR_TYPE"
    /// `ERROR_CODE`, an `int`, with ``resultError`` only.
    public static let errorCode = "ERROR_CODE"
    /// `ERROR_DESCRIPTION`, an optional `String`, with ``resultError`` only.
    public static let errorDescription = "ERROR_DESCRIPTION"
    /// The result code of an error answer (the sample's `APP_FLIP_RESULT_ERROR`).
    public static let resultError: Int32 = -2

    /// `ERROR_TYPE`'s values.
    public enum ErrorType: Int32, Sendable, Hashable, CaseIterable, CustomStringConvertible {
        /// Google falls back to web OAuth linking.
        case recoverable = 1
        /// Linking ends.
        case unrecoverable = 2
        /// The request itself is wrong.
        case invalidRequest = 3

        /// The type's name and number, `invalid request (3)`.
        public var description: String {
            switch self {
            case .recoverable: "recoverable (1)"
            case .unrecoverable: "unrecoverable (2)"
            case .invalidRequest: "invalid request (3)"
            }
        }
    }

    /// `RESULT_OK` with the code.
    public static func code(_ code: String) -> IntentResult {
        IntentResult(resultCode: IntentResult.ok, extras: [authorizationCode: .string(code)])
    }

    /// ``resultError`` with `ERROR_TYPE`, `ERROR_CODE` and, when given, `ERROR_DESCRIPTION`.
    public static func error(_ type: ErrorType, code: Int32, description: String? = nil) -> IntentResult {
        var extras: [String: IntentExtra] = [errorType: .int(type.rawValue), errorCode: .int(code)]
        if let description { extras[errorDescription] = .string(description) }
        return IntentResult(resultCode: resultError, extras: extras)
    }

    /// `RESULT_CANCELED` with no extras: what an activity that finishes without `setResult` returns.
    public static let canceled = IntentResult(resultCode: IntentResult.canceled)

    /// The intent the Google app sends to `package`'s App Flip activity.
    public static func intent(action: String, package: String, clientID: String, scopes: [String], redirectURI: String) -> Intent {
        Intent(
            action: action,
            package: package,
            extras: [Self.clientID: .string(clientID), scope: .stringArray(scopes), Self.redirectURI: .string(redirectURI)]
        )
    }
}
