extension ManifestValues {
    /// Follows the reference `id` through the resource table: the default configuration's value is taken,
    /// or the only configuration's, and the configuration bits of every resource on the way are gathered, as
    /// `TypedArray` gathers them.
    mutating func resolve(_ id: UInt32, attribute: AndroidAttribute, at path: String, nonConfiguration: Bool) throws -> AndroidXMLValue? {
        var resolution = ResourceResolution(
            element: path,
            attribute: "android:\(attribute.name)",
            reference: Self.hex(id),
            id: id,
            value: nil,
            configuration: nil,
            otherConfigurations: [],
            dropped: nil
        )
        defer { resolutions.append(resolution) }
        guard let resources else {
            notes.append(
                ManifestNote(
                    severity: .unknown,
                    element: path,
                    message: "android:\(attribute.name) refers to \(Self.hex(id)), and there is no resource table to resolve it"
                )
            )
            return nil
        }
        var current = id
        var changing: UInt32 = 0
        for hop in 0..<Self.maxReferenceHops {
            guard let entry = try resources.entry(current), let taken = entry.values.first(where: \.configuration.isDefault) ?? entry.values.first
            else {
                notes.append(
                    ManifestNote(
                        severity: .ignored,
                        element: path,
                        message: "android:\(attribute.name) refers to \(Self.hex(current)), which the resource table does not define"
                    )
                )
                return nil
            }
            if hop == 0 {
                resolution.reference = "@" + entry.name
                resolution.configuration = taken.configuration.description
                resolution.otherConfigurations = entry.values.filter { $0 != taken }.map(\.configuration.description)
            }
            changing |= entry.changingConfigurations
            if case .reference(let next) = taken.value {
                current = next
                continue
            }
            if nonConfiguration, changing & ~Self.ignoredConfigurationBits != 0 {
                let configurations = entry.values.map(\.configuration.description).joined(separator: ", ")
                resolution.dropped =
                    "@\(entry.name) varies by configuration (\(configurations)), and Android reads android:\(attribute.name) with TypedArray.getNonConfigurationString, which then returns null"
                notes.append(ManifestNote(severity: .ignored, element: path, message: "android:\(attribute.name): " + resolution.dropped!))
                return nil
            }
            resolution.value = taken.value.coercedString
            return taken.value
        }
        notes.append(
            ManifestNote(
                severity: .ignored,
                element: path,
                message: "android:\(attribute.name): references nested deeper than \(Self.maxReferenceHops)"
            )
        )
        return nil
    }

    static func hex(_ id: UInt32) -> String {
        let digits = String(id, radix: 16)
        return "@0x" + String(repeating: "0", count: max(0, 8 - digits.count)) + digits
    }
}
