/// What a started activity returns to a caller that started it for a result: `Activity.setResult(int,
/// Intent)`, delivered to the caller's `onActivityResult`.
public struct IntentResult: Sendable, Hashable {
    /// `Activity.RESULT_OK`.
    public static let ok: Int32 = -1
    /// `Activity.RESULT_CANCELED`: also what an activity that finishes without `setResult` returns.
    public static let canceled: Int32 = 0
    /// `Activity.RESULT_FIRST_USER`: the first code an app defines for itself.
    public static let firstUser: Int32 = 1

    /// The result code.
    public var resultCode: Int32
    /// The result intent's extras (`AUTHORIZATION_CODE`, `ERROR_TYPE`, …).
    public var extras: [String: IntentExtra]

    /// Creates a result.
    public init(resultCode: Int32, extras: [String: IntentExtra] = [:]) {
        self.resultCode = resultCode
        self.extras = extras
    }

    /// The extras as `watch` and the log show them: secret ones by their length only.
    public var redactedExtras: [String: IntentExtra] {
        Dictionary(uniqueKeysWithValues: extras.map { ($0.key, $0.value.redacted(name: $0.key)) })
    }
}

extension Intent {
    /// The extras as `watch` and the log show them: secret ones by their length only.
    public var redactedExtras: [String: IntentExtra] {
        Dictionary(uniqueKeysWithValues: extras.map { ($0.key, $0.value.redacted(name: $0.key)) })
    }

    /// The intent in the form of `Intent.toUri(URI_INTENT_SCHEME)` without its extras, for a log line and a
    /// `watch` event's `url`: `intent:#Intent;action=…;package=…;component=…;end`.
    public func uri(component: String?) -> String {
        var uri = "intent:#Intent;action=" + Self.escape(action) + ";package=" + Self.escape(package)
        if let component { uri += ";component=" + Self.escape(package) + "/" + Self.escape(component) }
        return uri + ";end"
    }

    /// Every byte but RFC 3986's unreserved ones percent-encoded: the `;` and `=` of the form never appear
    /// inside a value.
    private static func escape(_ text: String) -> String {
        PercentEncoding.encodeStrictly(text)
    }
}
