import SwiftProtobuf

/// aapt2's protobuf XML (`aapt.pb.XmlNode`, AOSP `tools/aapt2/Resources.proto`), the form of an Android App
/// Bundle's `base/manifest/AndroidManifest.xml`, decoded with swift-protobuf. Unknown fields are kept and
/// ignored; a repeated singular field keeps its last value (the protobuf rule); nesting is bounded by
/// swift-protobuf's message depth limit, derived from ``XMLLimits``.
public enum ProtoXMLReader {
    public static func read(_ bytes: [UInt8], file: String, limits: XMLLimits = .standard) throws -> AndroidXMLElement {
        var options = BinaryDecodingOptions()
        options.messageDepthLimit = limits.maxDepth * 2 + 8
        let node: Aapt_Pb_XmlNode
        do {
            node = try Aapt_Pb_XmlNode(serializedBytes: bytes, options: options)
        } catch {
            throw ArtifactError("protobuf XmlNode", file: file, "not an aapt2 XmlNode: \(error)")
        }
        guard case .element(let root)? = node.node else {
            throw ArtifactError("protobuf XmlNode", file: file, offset: 0, "the root node is not an element")
        }
        var count = 0
        return try element(root, line: node.source.lineNumber, count: &count, limits: limits, file: file)
    }

    private static func element(
        _ proto: Aapt_Pb_XmlElement,
        line: UInt32,
        count: inout Int,
        limits: XMLLimits,
        file: String
    ) throws -> AndroidXMLElement {
        count += 1
        guard count <= limits.maxElements else { throw ArtifactError("protobuf XmlNode", file: file, "more than \(limits.maxElements) elements") }
        guard proto.attribute.count <= limits.maxAttributes else {
            throw ArtifactError(
                "protobuf XmlNode",
                file: file,
                "<\(proto.name)> has \(proto.attribute.count) attributes, over \(limits.maxAttributes)"
            )
        }
        var element = AndroidXMLElement(
            namespace: proto.namespaceUri.isEmpty ? nil : proto.namespaceUri,
            name: proto.name,
            line: line == 0 ? nil : Int(line)
        )
        element.attributes = proto.attribute.map { attribute in
            AndroidXMLAttribute(
                namespace: attribute.namespaceUri.isEmpty ? nil : attribute.namespaceUri,
                name: attribute.name,
                resourceID: attribute.resourceID == 0 ? nil : attribute.resourceID,
                raw: attribute.value,
                value: attribute.hasCompiledItem ? value(attribute.compiledItem) ?? .string(attribute.value) : .string(attribute.value)
            )
        }
        for child in proto.child {
            if case .element(let inner)? = child.node {
                element.children.append(try self.element(inner, line: child.source.lineNumber, count: &count, limits: limits, file: file))
            }
        }
        return element
    }

    /// A compiled `Item` as the binary form's `Res_value` would carry it.
    static func value(_ item: Aapt_Pb_Item) -> AndroidXMLValue? {
        switch item.value {
        case .ref(let reference): reference.type == .attribute ? .attributeReference(reference.id) : .reference(reference.id)
        case .str(let string): .string(string.value)
        case .rawStr(let string): .string(string.value)
        case .styledStr(let string): .string(string.value)
        case .prim(let primitive):
            switch primitive.oneofValue {
            case .booleanValue(let value): .boolean(value)
            case .intDecimalValue(let value): .integer(value, hex: false)
            case .intHexadecimalValue(let value): .integer(Int32(bitPattern: value), hex: true)
            default: nil
            }
        case nil: nil
        }
    }
}
