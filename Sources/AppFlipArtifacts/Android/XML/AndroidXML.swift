/// An XML element of an Android manifest, whichever form it was read from: binary XML in an APK
/// (``BinaryXMLReader``), aapt2's protobuf XML in an AAB (``ProtoXMLReader``), or source text
/// (``SourceXMLReader``). The manifest model (``AndroidManifestReader``) is built from this one shape.
public struct AndroidXMLElement: Sendable, Hashable {
    /// The element's namespace URI, nil for none (manifest elements have none).
    public var namespace: String?
    public var name: String
    public var attributes: [AndroidXMLAttribute]
    public var children: [AndroidXMLElement]
    /// The source line the compiler recorded, when it did.
    public var line: Int?

    public init(namespace: String? = nil, name: String, attributes: [AndroidXMLAttribute] = [], children: [AndroidXMLElement] = [], line: Int? = nil)
    {
        self.namespace = namespace
        self.name = name
        self.attributes = attributes
        self.children = children
        self.line = line
    }

    /// The children named `name`, in order.
    public func children(named name: String) -> [AndroidXMLElement] { children.filter { $0.name == name && $0.namespace == nil } }
}

/// One attribute: its name, the resource id a compiler gave it (what `obtainAttributes` matches on), the raw
/// text when kept, and the typed value.
public struct AndroidXMLAttribute: Sendable, Hashable {
    public var namespace: String?
    public var name: String
    /// The attribute's resource id (`0x01010028` for `android:host`) from the binary XML's resource map or
    /// the protobuf's `resource_id`; nil in source XML.
    public var resourceID: UInt32?
    /// The raw string the compiler kept, if any.
    public var raw: String?
    public var value: AndroidXMLValue

    public init(namespace: String? = nil, name: String, resourceID: UInt32? = nil, raw: String? = nil, value: AndroidXMLValue) {
        self.namespace = namespace
        self.name = name
        self.resourceID = resourceID
        self.raw = raw
        self.value = value
    }
}

/// A typed attribute value, as `Res_value` carries it (AOSP `libs/androidfw/include/androidfw/ResourceTypes.h`).
public enum AndroidXMLValue: Sendable, Hashable {
    case string(String)
    /// `@0x7f0b0001`: a resource, resolved through the app's resource table.
    case reference(UInt32)
    /// `?0x7f010001`: a theme attribute, which only a theme resolves.
    case attributeReference(UInt32)
    case boolean(Bool)
    /// `TYPE_INT_DEC` or `TYPE_INT_HEX`.
    case integer(Int32, hex: Bool)
    /// A reference written by name in source XML (`@string/host`), resolved only once compiled.
    case unresolvedReference(String)
    /// Any other `Res_value` type (float, dimension, colour…), with its raw type and data.
    case other(type: UInt8, data: UInt32)

    /// The `Res_value` data types this reader names (ResourceTypes.h).
    enum DataType {
        static let null: UInt8 = 0x00
        static let reference: UInt8 = 0x01
        static let attribute: UInt8 = 0x02
        static let string: UInt8 = 0x03
        static let dynamicReference: UInt8 = 0x07
        static let intDecimal: UInt8 = 0x10
        static let intHex: UInt8 = 0x11
        static let boolean: UInt8 = 0x12
    }

    /// What `TypedValue.coerceToString` writes for the value, as `XmlPullParser.getAttributeValue` returns
    /// it when no raw string was kept.
    public var coercedString: String {
        switch self {
        case .string(let text): text
        case .reference(let id): "@\(Int32(bitPattern: id))"
        case .attributeReference(let id): "?\(Int32(bitPattern: id))"
        case .boolean(let value): value ? "true" : "false"
        case .integer(let value, let hex): hex ? "0x" + String(UInt32(bitPattern: value), radix: 16) : String(value)
        case .unresolvedReference(let name): name
        case .other(_, let data): String(data)
        }
    }
}

/// The bounds on a manifest's XML, whatever its form: a hostile file is refused at them instead of
/// exhausting the stack or memory.
public struct XMLLimits: Sendable, Hashable {
    /// The deepest nesting of elements; a manifest needs five.
    public var maxDepth: Int
    /// The most elements in one document.
    public var maxElements: Int
    /// The most attributes on one element.
    public var maxAttributes: Int

    public init(maxDepth: Int = 64, maxElements: Int = 50_000, maxAttributes: Int = 1_024) {
        self.maxDepth = maxDepth
        self.maxElements = maxElements
        self.maxAttributes = maxAttributes
    }

    public static let standard = XMLLimits()
}
