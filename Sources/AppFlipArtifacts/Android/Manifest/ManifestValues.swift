/// How the package parser reads one attribute of a manifest element, with the resolutions and notes it
/// makes: styleable attributes by resource id (by name in source XML), references resolved through the
/// resource table, and `getNonConfigurationString`'s refusal of a value that varies by configuration.
struct ManifestValues {
    let form: AndroidManifest.Form
    let resources: (any ResourceResolver)?
    var resolutions: [ResourceResolution] = []
    var notes: [ManifestNote] = []

    /// The most references followed from one attribute (Android's `ResolveReference` stops a loop too).
    static let maxReferenceHops = 16
    /// `ResTable_config` change bits Android's `TypedArray` ignores: `CONFIG_VERSION`.
    static let ignoredConfigurationBits: UInt32 = 0x0400

    init(form: AndroidManifest.Form, resources: (any ResourceResolver)?) {
        self.form = form
        self.resources = resources
    }

    /// The attribute `obtainAttributes` sees: in compiled XML the one with the attribute's resource id, in
    /// source XML the one of that name in the `android` namespace.
    func attribute(_ element: AndroidXMLElement, _ attribute: AndroidAttribute) -> AndroidXMLAttribute? {
        if form == .source {
            return element.attributes.first { $0.namespace == AndroidAttribute.namespace && $0.name == attribute.name }
        }
        return element.attributes.first { $0.resourceID == attribute.id }
    }

    /// `XmlPullParser.getAttributeValue(namespace, name)`: the raw string when kept, else the typed value
    /// coerced to a string, never resolved.
    func rawValue(_ element: AndroidXMLElement, namespace: String?, name: String) -> String? {
        guard let attribute = element.attributes.first(where: { $0.namespace == namespace && $0.name == name }) else { return nil }
        return attribute.raw ?? attribute.value.coercedString
    }

    /// `TypedArray.getNonConfigurationString`: nil when absent or when its resource varies by configuration.
    mutating func string(_ element: AndroidXMLElement, _ attribute: AndroidAttribute, at path: String) throws -> String? {
        guard let value = try value(element, attribute, at: path, nonConfiguration: true) else { return nil }
        return value.coercedString
    }

    /// `TypedArray.getBoolean`: an integer or boolean value, or the text `true` / `false`.
    mutating func boolean(_ element: AndroidXMLElement, _ attribute: AndroidAttribute, at path: String) throws -> Bool? {
        switch try value(element, attribute, at: path, nonConfiguration: false) {
        case .boolean(let value): return value
        case .integer(let value, _): return value != 0
        case .string(let text) where text == "true" || text == "false": return text == "true"
        case nil: return nil
        case .some(let other):
            notes.append(
                ManifestNote(severity: .ignored, element: path, message: "android:\(attribute.name) is \(other.coercedString), not a boolean")
            )
            return nil
        }
    }

    /// `TypedArray.getInt` or `peekValue`: an integer, or a string (a codename, or source text).
    mutating func integerOrString(_ element: AndroidXMLElement, _ attribute: AndroidAttribute, at path: String) throws -> SDKVersion? {
        switch try value(element, attribute, at: path, nonConfiguration: false) {
        case .integer(let value, _): return .level(Int(value))
        case .string(let text): return Int(text).map { .level($0) } ?? .codename(text)
        case nil: return nil
        case .some(let other): return .codename(other.coercedString)
        }
    }

    /// The attribute's value with references followed; records each resolution.
    private mutating func value(
        _ element: AndroidXMLElement,
        _ attribute: AndroidAttribute,
        at path: String,
        nonConfiguration: Bool
    ) throws -> AndroidXMLValue? {
        guard let found = self.attribute(element, attribute) else { return nil }
        switch found.value {
        case .reference(let id): return try resolve(id, attribute: attribute, at: path, nonConfiguration: nonConfiguration)
        case .unresolvedReference(let name):
            resolutions.append(
                ResourceResolution(
                    element: path,
                    attribute: "android:\(attribute.name)",
                    reference: name,
                    id: nil,
                    value: nil,
                    configuration: nil,
                    otherConfigurations: [],
                    dropped: nil
                )
            )
            notes.append(
                ManifestNote(
                    severity: .unknown,
                    element: path,
                    message: "android:\(attribute.name)=\"\(name)\" is resolved only when the app is built"
                )
            )
            return nil
        default: return found.value
        }
    }
}
