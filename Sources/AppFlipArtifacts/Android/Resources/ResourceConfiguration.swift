/// A `ResTable_config`: the device configuration a resource value is for (AOSP
/// `libs/androidfw/include/androidfw/ResourceTypes.h`, `struct ResTable_config`), kept as its bytes and
/// described in the qualifier syntax of resource folders (`fr-rCA-v21`).
public struct ResourceConfiguration: Sendable, Hashable, CustomStringConvertible {
    /// `default`, or the qualifiers: `fr-rCA-v21`.
    public let description: String
    /// Whether every field is unset: `values/`.
    public let isDefault: Bool
    /// Whether it differs from the default in the SDK version alone, which Android's `TypedArray` does not
    /// count as a configuration change (`ActivityInfo.CONFIG_NATIVE_BITS` has no version bit).
    public let isVersionOnly: Bool

    init(description: String, isDefault: Bool, isVersionOnly: Bool) {
        self.description = description
        self.isDefault = isDefault
        self.isVersionOnly = isVersionOnly
    }

    /// Reads the configuration at `offset` of a `ResTable_type` chunk.
    init(_ chunk: ByteReader, at offset: Int) throws {
        let size = try chunk.size32(at: offset)
        guard size >= 4 else { throw chunk.error("a configuration of \(size) bytes", at: offset) }
        let fields = ConfigurationBytes(bytes: Array(try chunk.bytes(at: offset + 4, count: size - 4, "the configuration")))
        self.init(description: fields.description, isDefault: fields.isDefault, isVersionOnly: fields.isVersionOnly)
    }
}

/// The bytes of a `ResTable_config` after its `size` field, named.
struct ConfigurationBytes {
    let bytes: [UInt8]

    var isDefault: Bool { bytes.allSatisfy { $0 == 0 } }

    /// Only `sdkVersion` and `minorVersion` (offsets 24–27) are set.
    var isVersionOnly: Bool { !isDefault && bytes.indices.allSatisfy { bytes[$0] == 0 || (20..<24).contains($0) } }

    private func u8(_ at: Int) -> Int { at - 4 < bytes.count ? Int(bytes[at - 4]) : 0 }
    private func u16(_ at: Int) -> Int { u8(at) | u8(at + 1) << 8 }

    /// `default`, or the qualifiers this reader names (MCC, MNC, locale, orientation, night mode, density,
    /// smallest and available widths and heights, SDK version), with `+other` when others are set too.
    public var description: String {
        if isDefault { return "default" }
        var parts: [String] = []
        var named: Set<Int> = [4, 5, 6, 7, 8, 9, 10, 11, 12, 14, 15, 24, 25, 29, 30, 31, 32, 33, 34, 35]
        if u16(4) != 0 { parts.append("mcc\(u16(4))") }
        if u16(6) != 0 { parts.append("mnc\(u16(6))") }
        if let language = Self.code(u8(8), u8(9)) {
            parts.append(language)
            if let region = Self.code(u8(10), u8(11)) { parts.append("r" + region) }
        }
        switch u8(12) {
        case 1: parts.append("port")
        case 2: parts.append("land")
        default: break
        }
        switch u8(29) & 0x30 {
        case 0x10: parts.append("notnight")
        case 0x20: parts.append("night")
        default: break
        }
        if u8(29) & 0x0F != 0 { named.remove(29) }
        if u16(30) != 0 { parts.append("sw\(u16(30))dp") }
        if u16(32) != 0 { parts.append("w\(u16(32))dp") }
        if u16(34) != 0 { parts.append("h\(u16(34))dp") }
        if let density = Self.density(u16(14)) { parts.append(density) }
        if u16(24) != 0 { parts.append("v\(u16(24))") }
        let others = bytes.indices.contains { bytes[$0] != 0 && !named.contains($0 + 4) }
        return parts.joined(separator: "-") + (others ? (parts.isEmpty ? "+other" : "-+other") : "")
    }

    /// A two-letter language or region code; a packed three-letter one (high bit set) is spelled out.
    private static func code(_ first: Int, _ second: Int) -> String? {
        if first == 0 && second == 0 { return nil }
        if first & 0x80 != 0 {
            let letters = [second & 0x1F, (second & 0xE0) >> 5 | (first & 0x03) << 3, (first & 0x7C) >> 2]
            return String(decoding: letters.map { UInt8($0 + 0x61) }, as: UTF8.self)
        }
        return String(decoding: [UInt8(first), UInt8(second)], as: UTF8.self)
    }

    private static func density(_ value: Int) -> String? {
        switch value {
        case 0: nil
        case 120: "ldpi"
        case 160: "mdpi"
        case 213: "tvdpi"
        case 240: "hdpi"
        case 320: "xhdpi"
        case 480: "xxhdpi"
        case 640: "xxxhdpi"
        case 0xFFFE: "anydpi"
        case 0xFFFF: "nodpi"
        default: "\(value)dpi"
        }
    }
}
