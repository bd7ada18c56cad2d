/// One `<activity>` of an app's manifest, with the one `<intent-filter>` the daemon resolves intents by.
public struct AndroidActivity: Sendable, Hashable {
    /// The category `startActivity` adds to every intent it resolves by its filters
    /// (`Intent.CATEGORY_DEFAULT`): an activity whose filter lacks it is never found that way.
    public static let defaultCategory = "android.intent.category.DEFAULT"

    /// `android:name`: `.AppFlipActivity` is relative to the package, `com.example.app.AppFlipActivity` is not.
    public var name: String
    /// The filter's `<action android:name>` entries.
    public var actions: [String]
    /// The filter's `<category android:name>` entries; ``defaultCategory`` must be one for an intent to reach it.
    public var categories: [String]
    /// `android:exported`: whether other apps may start it. Android 12 requires it on every activity with an
    /// intent filter, so it has no default here either.
    public var exported: Bool

    /// Creates the declaration.
    public init(name: String, actions: [String], categories: [String] = [defaultCategory], exported: Bool) {
        self.name = name
        self.actions = actions
        self.categories = categories
        self.exported = exported
    }

    /// The fully qualified class name: a name starting with a dot, or with none, is relative to `package`
    /// (`PackageParser.buildClassName`).
    public func className(in package: String) -> String {
        if name.hasPrefix(".") { return package + name }
        return name.contains(".") ? name : package + "." + name
    }

    /// Why the declaration is unusable, with the field at fault, or nil.
    func problem() -> IntentProblem? {
        let classCharacters = name.utf8.allSatisfy { byte in
            byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "$")
                || (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "z")) || (byte >= 0x30 && byte <= 0x39)
        }
        if name.isEmpty || name == "." || !classCharacters || name.hasSuffix(".") || name.contains("..") {
            return IntentProblem(field: "name", "must be a class name, .AppFlipActivity or com.example.app.AppFlipActivity")
        }
        for (index, action) in actions.enumerated() where action.isEmpty || action.utf8.count > IntentLimits.maxActionBytes {
            return IntentProblem(field: "actions[\(index)]", "must be a non-empty string of at most \(IntentLimits.maxActionBytes) bytes")
        }
        for (index, category) in categories.enumerated() where category.isEmpty {
            return IntentProblem(field: "categories[\(index)]", "must be a non-empty string")
        }
        return nil
    }
}

extension AndroidActivity: Codable {
    private enum CodingKeys: String, CodingKey {
        case name, actions, categories, exported
    }

    /// Decodes the declaration; `categories` defaults to none, as in a manifest, and `exported` is required.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        actions = try container.decode([String].self, forKey: .actions)
        categories = try container.decodeIfPresent([String].self, forKey: .categories) ?? []
        exported = try container.decode(Bool.self, forKey: .exported)
    }
}
