/// `resources.arsc`, the compiled resource table an APK's manifest references resolve through (AOSP
/// `libs/androidfw/include/androidfw/ResourceTypes.h`: `ResTable_header`, `ResTable_package`,
/// `ResTable_typeSpec`, `ResTable_type`, `ResTable_entry`, `ResTable_config`; sparse and 16-bit offsets as
/// `libs/androidfw/TypeWrappers.cpp` and `LoadedArsc.cpp` read them). Hand-written, as binary XML: no Swift
/// library reads it. The table is indexed once (where each package's type chunks lie); entries and strings
/// are decoded only when a reference asks for them.
public struct ResourceTable: Sendable {
    static let tableType: UInt16 = 0x0002
    static let packageType: UInt16 = 0x0200
    static let typeType: UInt16 = 0x0201
    static let typeSpecType: UInt16 = 0x0202

    let file: String
    let globalStrings: StringPool?
    let packages: [UInt8: Package]

    /// One `ResTable_package`: its name, its type and key names, and its type chunks by type id.
    struct Package {
        let id: UInt8
        let name: String
        let typeNames: StringPool
        let keyNames: StringPool
        /// `ResTable_typeSpec` flags per entry, by type id.
        var specFlags: [UInt8: ByteReader] = [:]
        /// Every `ResTable_type` chunk (one per configuration), by type id.
        var types: [UInt8: [ByteReader]] = [:]
    }

    /// Indexes the table.
    public init(_ bytes: [UInt8], file: String) throws {
        let whole = ByteReader(bytes, file: file, structure: "resources.arsc")
        guard try whole.uint16(at: 0) == Self.tableType else {
            throw whole.error("not a resource table: the first chunk's type is not RES_TABLE_TYPE (0x0002)", at: 0)
        }
        let table = try BinaryXMLReader.Chunk(whole, at: 0)
        var globalStrings: StringPool?
        var packages: [UInt8: Package] = [:]
        var offset = table.headerSize
        while offset < table.reader.count {
            let chunk = try BinaryXMLReader.Chunk(table.reader, at: offset)
            switch chunk.type {
            case StringPool.chunkType where globalStrings == nil:
                globalStrings = try StringPool(chunk: ByteReader(chunk.reader, structure: "resources.arsc global string pool"))
            case Self.packageType:
                let package = try Self.package(chunk)
                if packages[package.id] == nil { packages[package.id] = package }
            default: break
            }
            offset += chunk.reader.count
        }
        self.file = file
        self.globalStrings = globalStrings
        self.packages = packages
    }

    /// Reads a `ResTable_package` header and indexes its chunks.
    private static func package(_ chunk: BinaryXMLReader.Chunk) throws -> Package {
        let reader = ByteReader(chunk.reader, structure: "resources.arsc package")
        guard chunk.headerSize >= 284 else { throw reader.error("a package header of \(chunk.headerSize) bytes, under 284", at: 2) }
        let id = try reader.uint32(at: 8)
        guard id <= 0xFF else { throw reader.error("package id \(id) is over 0xff", at: 8) }
        var name: [UInt16] = []
        for index in 0..<128 {
            let unit = try reader.uint16(at: 12 + index * 2)
            if unit == 0 { break }
            name.append(unit)
        }
        let typeNames = try StringPool(
            chunk: ByteReader(try BinaryXMLReader.Chunk(reader, at: try reader.size32(at: 268)).reader, structure: "resources.arsc type strings")
        )
        let keyNames = try StringPool(
            chunk: ByteReader(try BinaryXMLReader.Chunk(reader, at: try reader.size32(at: 276)).reader, structure: "resources.arsc key strings")
        )
        var package = Package(id: UInt8(id), name: String(decoding: name, as: UTF16.self), typeNames: typeNames, keyNames: keyNames)
        var offset = chunk.headerSize
        while offset < reader.count {
            let inner = try BinaryXMLReader.Chunk(reader, at: offset)
            switch inner.type {
            case typeSpecType:
                package.specFlags[try inner.reader.uint8(at: 8)] = inner.reader
            case typeType:
                package.types[try inner.reader.uint8(at: 8), default: []].append(ByteReader(inner.reader, structure: "resources.arsc type"))
            default: break
            }
            offset += inner.reader.count
        }
        return package
    }
}
