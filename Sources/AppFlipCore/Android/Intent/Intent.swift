/// An explicit Android intent, as the Google app starts a partner's App Flip activity: an action, the
/// target package (`Intent.setPackage`), and typed extras (`CLIENT_ID`, `SCOPE`, `REDIRECT_URI`).
///
/// Its decoding holds every field to Android's own rules and to ``IntentLimits``, with the JSON path of the
/// field at fault, so that the protocol refuses a bad intent with `invalid_request` naming it.
public struct Intent: Sendable, Hashable {
    /// `Intent.getAction()`: matched against the target's `<action android:name>` entries, exactly.
    public var action: String
    /// `Intent.getPackage()`: only this package's activities are candidates.
    public var package: String
    /// `Intent.getExtras()`, by name.
    public var extras: [String: IntentExtra]

    /// Creates an intent; ``validate()`` says whether it is one Android would send.
    public init(action: String, package: String, extras: [String: IntentExtra] = [:]) {
        self.action = action
        self.package = package
        self.extras = extras
    }

    /// Why the intent cannot be sent, with the field at fault (`package`, `extras.SCOPE`), or nil.
    public func problem() -> IntentProblem? {
        if action.isEmpty { return IntentProblem(field: "action", "must be a non-empty string") }
        if action.utf8.count > IntentLimits.maxActionBytes {
            return IntentProblem(field: "action", "is longer than \(IntentLimits.maxActionBytes) bytes")
        }
        if let problem = AndroidPackageName.problem(with: package) { return IntentProblem(field: "package", problem) }
        return IntentLimits.problem(with: extras).map { IntentProblem(field: "extras" + ($0.field.map { ".\($0)" } ?? ""), $0.message) }
    }
}

/// What is wrong with an intent, a result or an Android identity: the field, relative to the object, and why.
public struct IntentProblem: Error, Sendable, Hashable, CustomStringConvertible {
    /// The field at fault, dotted (`extras.SCOPE`, `activities[0].name`); nil for the object itself.
    public var field: String?
    /// Why, for people.
    public var message: String

    /// Creates the problem.
    public init(field: String?, _ message: String) {
        self.field = field
        self.message = message
    }

    /// `field: message`.
    public var description: String { field.map { "\($0): \(message)" } ?? message }
}

extension Intent: Codable {
    private enum CodingKeys: String, CodingKey {
        case action, package, extras
    }

    /// Decodes the intent and refuses one that ``problem()`` finds fault with, at the field's path.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        action = try container.decode(String.self, forKey: .action)
        package = try container.decode(String.self, forKey: .package)
        extras = try container.decodeIfPresent(IntentExtras.self, forKey: .extras)?.extras ?? [:]
        if let problem = problem() { throw problem.decodingError(under: container.codingPath) }
    }
}

/// A `Bundle` of extras decoded name by name, in name order, so that of two bad extras the error always
/// names the same one.
package struct IntentExtras: Codable {
    package var extras: [String: IntentExtra]

    package init(_ extras: [String: IntentExtra]) {
        self.extras = extras
    }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: ExtraName.self)
        var extras: [String: IntentExtra] = [:]
        for name in container.allKeys.sorted(by: { $0.stringValue < $1.stringValue }) {
            extras[name.stringValue] = try container.decode(IntentExtra.self, forKey: name)
        }
        self.extras = extras
    }

    package func encode(to encoder: any Encoder) throws {
        try extras.encode(to: encoder)
    }
}

/// An extra's name as a coding key.
private struct ExtraName: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

extension IntentProblem {
    /// The problem as the `DecodingError` a protocol or configuration decoder reports with its path.
    package func decodingError(under codingPath: [any CodingKey]) -> DecodingError {
        let path = codingPath + (field.map { [ExtraName(stringValue: $0)] } ?? [])
        return DecodingError.dataCorrupted(.init(codingPath: path, debugDescription: message))
    }
}
