public import AppFlipCore

/// `start`: starts an Android activity with an explicit intent, as `Context.startActivity` or, with
/// `forResult`, `Activity.startActivityForResult` does.
public struct StartRequest: Sendable, Hashable, Codable {
    /// The intent: action, target package, extras.
    public var intent: Intent
    /// Whether the caller waits for the activity's result (`startActivityForResult`). Only then does the
    /// started activity learn who called it, as `getCallingActivity()` is null otherwise.
    public var forResult: Bool

    /// Creates the request.
    public init(intent: Intent, forResult: Bool) {
        self.intent = intent
        self.forResult = forResult
    }

    private enum CodingKeys: String, CodingKey {
        case intent, forResult
    }

    /// Decodes the request; a missing `forResult` is false, as `startActivity` is.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        intent = try container.decode(Intent.self, forKey: .intent)
        forResult = try container.decodeIfPresent(Bool.self, forKey: .forResult) ?? false
    }
}

/// The reply to a successful `start`: where the intent went and, for a start for a result, the result.
public struct StartResult: Sendable, Hashable, Codable {
    /// The registered app whose Android identity has the intent's package.
    public var app: String
    /// The package.
    public var package: String
    /// The activity the intent resolved to, fully qualified.
    public var activity: String
    /// For `forResult`: the activity's result code (`-1` `RESULT_OK`, `0` `RESULT_CANCELED`, …).
    public var resultCode: Int32?
    /// For `forResult`: the result intent's extras, whole: the caller is the one app that may read them.
    public var extras: [String: IntentExtra]?

    /// Creates the reply.
    public init(app: String, package: String, activity: String, resultCode: Int32? = nil, extras: [String: IntentExtra]? = nil) {
        self.app = app
        self.package = package
        self.activity = activity
        self.resultCode = resultCode
        self.extras = extras
    }

    /// The result, for a start for a result.
    public var result: IntentResult? {
        resultCode.map { IntentResult(resultCode: $0, extras: extras ?? [:]) }
    }
}

/// `intent`: the daemon starts a live app's activity; the app answers with a `result` request.
public struct IntentPush: Sendable, Hashable, Codable {
    /// Unique per live-app connection, shared with `activity` pushes; the `result` names it.
    public var handoff: UInt64
    /// The registered app id.
    public var app: String
    /// The activity the intent resolved to, fully qualified.
    public var activity: String
    /// The intent, its extras whole: the started app may read them.
    public var intent: Intent
    /// Whether the caller waits for a result.
    public var forResult: Bool
    /// Who started it, as the daemon vouches: present only for a start for a result by a caller with an
    /// Android identity, as `getCallingActivity()` is null otherwise.
    public var caller: AndroidCaller?

    /// Creates a push.
    public init(handoff: UInt64, app: String, activity: String, intent: Intent, forResult: Bool, caller: AndroidCaller?) {
        self.handoff = handoff
        self.app = app
        self.activity = activity
        self.intent = intent
        self.forResult = forResult
        self.caller = caller
    }
}

/// `result`: a live app's answer to an `intent` push, `setResult(resultCode, data)` then `finish()`.
public struct ResultRequest: Sendable, Hashable, Codable {
    /// The `handoff` of the `intent` push being answered.
    public var handoff: UInt64
    /// The result code, a Java `int`.
    public var resultCode: Int32
    /// The result intent's extras.
    public var extras: [String: IntentExtra]

    /// Creates the answer.
    public init(handoff: UInt64, result: IntentResult) {
        self.handoff = handoff
        self.resultCode = result.resultCode
        self.extras = result.extras
    }

    /// The answer as a result.
    public var result: IntentResult {
        IntentResult(resultCode: resultCode, extras: extras)
    }

    private enum CodingKeys: String, CodingKey {
        case handoff, resultCode, extras
    }

    /// Decodes the answer, holding `resultCode` to Java's `int` and `extras` to ``IntentLimits``.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        handoff = try container.decode(UInt64.self, forKey: .handoff)
        guard let code = Int32(exactly: try container.decodeInteger(forKey: .resultCode)) else {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: container.codingPath + [CodingKeys.resultCode],
                    debugDescription: "a Java int is between -2147483648 and 2147483647"
                )
            )
        }
        resultCode = code
        extras = try container.decodeIfPresent(IntentExtras.self, forKey: .extras)?.extras ?? [:]
        if let problem = IntentLimits.problem(with: extras) {
            throw IntentProblem(field: "extras" + (problem.field.map { ".\($0)" } ?? ""), problem.message).decodingError(under: container.codingPath)
        }
    }

    /// Encodes the answer.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(handoff, forKey: .handoff)
        try container.encode(resultCode, forKey: .resultCode)
        try container.encode(extras, forKey: .extras)
    }
}

/// What `watch` shows of an intent handoff, secrets by their length only.
public struct IntentEvent: Sendable, Hashable, Codable {
    /// The intent's action.
    public var action: String
    /// The target package.
    public var package: String
    /// The activity it resolved to, when it resolved.
    public var activity: String?
    /// Whether it was started for a result.
    public var forResult: Bool
    /// The calling package the started app was told of, if any.
    public var caller: String?
    /// The intent's extras, redacted by `SecretNames`.
    public var extras: [String: IntentExtra]
    /// The result code, when the activity returned one.
    public var resultCode: Int32?
    /// The result's extras, redacted by `SecretNames` (`AUTHORIZATION_CODE` shows as `[redacted:NB]`).
    public var resultExtras: [String: IntentExtra]?

    /// Creates the event's intent part; give extras already redacted.
    public init(
        action: String,
        package: String,
        activity: String?,
        forResult: Bool,
        caller: String?,
        extras: [String: IntentExtra],
        resultCode: Int32?,
        resultExtras: [String: IntentExtra]?
    ) {
        self.action = action
        self.package = package
        self.activity = activity
        self.forResult = forResult
        self.caller = caller
        self.extras = extras
        self.resultCode = resultCode
        self.resultExtras = resultExtras
    }
}
