import SwiftProtobuf

/// An Android App Bundle's resource table (`base/resources.pb`, aapt2's `aapt.pb.ResourceTable`), the one
/// its protobuf manifest's references resolve through, decoded with swift-protobuf.
public struct ProtoResourceTable: ResourceResolver {
    private let entries: [UInt32: ResourceEntry]

    public init(_ bytes: [UInt8], file: String) throws {
        var options = BinaryDecodingOptions()
        options.messageDepthLimit = 32
        let table: Aapt_Pb_ResourceTable
        do {
            table = try Aapt_Pb_ResourceTable(serializedBytes: bytes, options: options)
        } catch {
            throw ArtifactError("protobuf ResourceTable", file: file, "not an aapt2 ResourceTable: \(error)")
        }
        var entries: [UInt32: ResourceEntry] = [:]
        for package in table.package where package.packageID.id <= 0xFF {
            for type in package.type where type.typeID.id <= 0xFF {
                for entry in type.entry where entry.entryID.id <= 0xFFFF {
                    let id = package.packageID.id << 24 | type.typeID.id << 16 | entry.entryID.id
                    let values = entry.configValue.compactMap { configured -> ConfiguredValue? in
                        guard case .item(let item)? = configured.value.value, let value = ProtoXMLReader.value(item) else { return nil }
                        return ConfiguredValue(configuration: Self.configuration(configured.config), value: value)
                    }
                    let changing: UInt32 = values.contains { !$0.configuration.isDefault && !$0.configuration.isVersionOnly } ? 0x1 : 0
                    entries[id] = ResourceEntry(id: id, name: "\(type.name)/\(entry.name)", values: values, changingConfigurations: changing)
                }
            }
        }
        self.entries = entries
    }

    public func entry(_ id: UInt32) throws -> ResourceEntry? { entries[id] }

    /// The configuration in resource-folder qualifiers, with `+other` for the fields this schema leaves unknown.
    static func configuration(_ proto: Aapt_Pb_Configuration) -> ResourceConfiguration {
        var parts: [String] = []
        if proto.mcc != 0 { parts.append("mcc\(proto.mcc)") }
        if proto.mnc != 0 { parts.append("mnc\(proto.mnc)") }
        if !proto.locale.isEmpty { parts.append(proto.locale) }
        if proto.orientation == 1 { parts.append("port") } else if proto.orientation == 2 { parts.append("land") }
        if proto.uiModeNight == 1 { parts.append("night") } else if proto.uiModeNight == 2 { parts.append("notnight") }
        if proto.density != 0 { parts.append("\(proto.density)dpi") }
        if !proto.product.isEmpty { parts.append(proto.product) }
        let versionOnly = parts.isEmpty && proto.unknownFields.data.isEmpty && proto.sdkVersion != 0
        if proto.sdkVersion != 0 { parts.append("v\(proto.sdkVersion)") }
        if !proto.unknownFields.data.isEmpty { parts.append("+other") }
        return ResourceConfiguration(
            description: parts.isEmpty ? "default" : parts.joined(separator: "-"),
            isDefault: parts.isEmpty,
            isVersionOnly: versionOnly
        )
    }
}
