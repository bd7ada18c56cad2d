/// A resource looked up by id: its name, its value in every configuration that defines it, and the
/// configuration dimensions its values vary by.
public struct ResourceEntry: Sendable, Hashable {
    public init(id: UInt32, name: String, values: [ConfiguredValue], changingConfigurations: UInt32) {
        self.id = id
        self.name = name
        self.values = values
        self.changingConfigurations = changingConfigurations
    }

    public let id: UInt32
    /// `string/host`.
    public let name: String
    /// Each configuration's value, in the table's order.
    public let values: [ConfiguredValue]
    /// The `ResTable_typeSpec` flags of the entry: the `ResTable_config` dimensions its values vary by
    /// (`CONFIG_LOCALE` 0x4 …), without the public and staged bits.
    public let changingConfigurations: UInt32
}

/// A resource's value in one configuration.
public struct ConfiguredValue: Sendable, Hashable {
    public let configuration: ResourceConfiguration
    public let value: AndroidXMLValue

    public init(configuration: ResourceConfiguration, value: AndroidXMLValue) {
        self.configuration = configuration
        self.value = value
    }
}

/// Where a manifest's resource references resolve: an APK's ``ResourceTable``, an AAB's protobuf table.
public protocol ResourceResolver: Sendable {
    /// The resource `id` names, or nil when there is none.
    func entry(_ id: UInt32) throws -> ResourceEntry?
}

extension ResourceTable: ResourceResolver {}

extension ResourceTable {
    /// `ResTable_typeSpec`'s bits that are not configuration dimensions (`SPEC_PUBLIC`, `SPEC_STAGED_API`).
    static let specNonConfigurationBits: UInt32 = 0x6000_0000

    /// The entry `id` names, or nil when the table has no such package, type or entry.
    public func entry(_ id: UInt32) throws -> ResourceEntry? {
        guard let package = packages[UInt8(id >> 24)] else { return nil }
        let typeID = UInt8((id >> 16) & 0xFF)
        let index = Int(id & 0xFFFF)
        guard typeID > 0, let chunks = package.types[typeID] else { return nil }
        var values: [ConfiguredValue] = []
        var keyName: String?
        for chunk in chunks {
            guard let (key, value) = try Self.entry(in: chunk, index: index, strings: globalStrings) else { continue }
            if keyName == nil { keyName = try package.keyNames.string(key) }
            values.append(ConfiguredValue(configuration: try ResourceConfiguration(chunk, at: 20), value: value))
        }
        guard let keyName else { return nil }
        var flags: UInt32 = 0
        if let spec = package.specFlags[typeID], index < (try spec.size32(at: 12)) {
            flags = try spec.uint32(at: Int(try spec.uint16(at: 2)) + index * 4) & ~Self.specNonConfigurationBits
        }
        let typeName = try package.typeNames.string(Int(typeID) - 1)
        return ResourceEntry(id: id, name: "\(typeName)/\(keyName)", values: values, changingConfigurations: flags)
    }

    /// The key index and simple value of entry `index` in one `ResTable_type` chunk, or nil when the chunk
    /// has no such entry (`NO_ENTRY`) or it is a map (a style or plural, never a manifest value).
    private static func entry(in chunk: ByteReader, index: Int, strings: StringPool?) throws -> (Int, AndroidXMLValue)? {
        let headerSize = Int(try chunk.uint16(at: 2))
        let flags = try chunk.uint8(at: 9)
        let entryCount = try chunk.size32(at: 12)
        let entriesStart = try chunk.size32(at: 16)
        guard entryCount <= (chunk.count - headerSize) / 2 else {
            throw chunk.error("\(entryCount) entry offsets do not fit in a type chunk of \(chunk.count) bytes", at: 12)
        }
        guard let offset = try entryOffset(chunk, headerSize: headerSize, flags: flags, count: entryCount, index: index) else { return nil }
        let at = entriesStart + offset
        try chunk.check(at, 8, "entry #\(index)")
        let size = Int(try chunk.uint16(at: at))
        let entryFlags = try chunk.uint16(at: at + 2)
        if entryFlags & 0x8 != 0 {
            // FLAG_COMPACT: the key in `size`, the data type in the high byte of `flags`, the data in `key`.
            return (size, try value(type: UInt8(entryFlags >> 8), data: try chunk.uint32(at: at + 4), strings: strings, chunk: chunk, at: at))
        }
        guard entryFlags & 0x1 == 0 else { return nil }
        let key = try chunk.size32(at: at + 4)
        try chunk.check(at + size, 8, "the value of entry #\(index)")
        return (
            key,
            try value(type: try chunk.uint8(at: at + size + 3), data: try chunk.uint32(at: at + size + 4), strings: strings, chunk: chunk, at: at)
        )
    }

    /// Where entry `index` starts, relative to `entriesStart`: from 32-bit offsets, 16-bit offsets
    /// (`FLAG_OFFSET16`, in 4-byte units) or a sorted sparse index (`FLAG_SPARSE`).
    private static func entryOffset(_ chunk: ByteReader, headerSize: Int, flags: UInt8, count: Int, index: Int) throws -> Int? {
        if flags & 0x01 != 0 {
            for slot in 0..<count {
                let at = headerSize + slot * 4
                if Int(try chunk.uint16(at: at)) == index { return Int(try chunk.uint16(at: at + 2)) * 4 }
            }
            return nil
        }
        guard index < count else { return nil }
        if flags & 0x02 != 0 {
            let offset = try chunk.uint16(at: headerSize + index * 2)
            return offset == 0xFFFF ? nil : Int(offset) * 4
        }
        let offset = try chunk.uint32(at: headerSize + index * 4)
        return offset == 0xFFFF_FFFF ? nil : Int(offset)
    }

    private static func value(type: UInt8, data: UInt32, strings: StringPool?, chunk: ByteReader, at: Int) throws -> AndroidXMLValue {
        switch type {
        case AndroidXMLValue.DataType.string:
            guard let strings else { throw chunk.error("a string value, and the table has no global string pool", at: at) }
            return .string(try strings.string(Int(data)))
        case AndroidXMLValue.DataType.reference, AndroidXMLValue.DataType.dynamicReference: return .reference(data)
        case AndroidXMLValue.DataType.attribute: return .attributeReference(data)
        case AndroidXMLValue.DataType.boolean: return .boolean(data != 0)
        case AndroidXMLValue.DataType.intDecimal: return .integer(Int32(bitPattern: data), hex: false)
        case AndroidXMLValue.DataType.intHex: return .integer(Int32(bitPattern: data), hex: true)
        default: return .other(type: type, data: data)
        }
    }
}
