/// The structure of a binary property list (`bplist00`), checked before Foundation parses it: the trailer, the
/// offset table, every container's references; the nesting, which a chain of one-element arrays can make as
/// deep as the file has objects, and a reference cycle endless; and the values Foundation would make, which
/// objects referenced more than once multiply (forty two-element arrays, each holding the next twice, are
/// 2^40 values in 300 bytes).
///
/// Format: CoreFoundation's CFBinaryPList.c (apple-oss-distributions/CF): the last 32 bytes are the trailer
/// (5 unused bytes, the sort version, the offset size, the object-reference size, then the object count, the
/// top object and the offset table's offset as big-endian 64-bit integers); an object starts with a marker byte
/// whose high nibble is its type (0xA array, 0xD dictionary) and low nibble its count, 0xF meaning that an
/// integer object (0x1N, 2^N bytes) follows with the count. Sets (0xC), ordered sets (0xB) and keyed-archiver
/// UIDs (0x8) are no property-list type (Apple's property lists hold arrays, dictionaries, strings, data,
/// dates, numbers and booleans); they are refused, as Foundation on Linux crashes bridging a set to Swift.
enum BinaryPropertyListShape {
    /// One container on the path being walked: where its references start, how many there are, the next to
    /// follow, its height so far (the levels of containers from it down, itself included) and its values so far
    /// (itself and everything it holds, expanded).
    private struct Container {
        var object: Int
        var references: Int
        var count: Int
        var next = 0
        var height = 1
        var values = 1
    }

    private struct Limits {
        let depth: Int
        let values: Int
    }

    private struct Table {
        let reader: ByteReader
        let offsetSize: Int
        let referenceSize: Int
        let objectCount: Int
        let tableOffset: Int

        func objectOffset(_ object: Int) throws(ArtifactError) -> Int {
            let at = tableOffset + object * offsetSize
            let offset = try integer(at: at, width: offsetSize)
            guard offset >= 8, offset < tableOffset else {
                throw reader.error("object \(object)'s offset \(offset) is outside the object area (8..<\(tableOffset))", at: at)
            }
            return offset
        }

        func integer(at offset: Int, width: Int) throws(ArtifactError) -> Int {
            var value = 0
            for index in 0..<width {
                value = value << 8 | Int(try reader.uint8(at: offset + index))
            }
            guard value >= 0 else { throw reader.error("an integer of \(width) bytes is out of range", at: offset) }
            return value
        }

        /// The container starting at `object`, or nil for any other type.
        func container(_ object: Int) throws(ArtifactError) -> Container? {
            let offset = try objectOffset(object)
            let marker = try reader.uint8(at: offset)
            let type = marker >> 4
            if let name = [0x8: "a keyed-archiver UID", 0xB: "an ordered set", 0xC: "a set"][type] {
                throw reader.error("\(name) (marker 0x\(String(marker, radix: 16))) is no property-list type", at: offset)
            }
            guard type == 0xA || type == 0xD else { return nil }
            var count = Int(marker & 0xF)
            var references = offset + 1
            if count == 0xF {
                let intMarker = try reader.uint8(at: offset + 1)
                guard intMarker >> 4 == 1, intMarker & 0xF <= 3 else {
                    throw reader.error("a container's count is not an integer object (marker 0x\(String(intMarker, radix: 16)))", at: offset + 1)
                }
                let width = 1 << Int(intMarker & 0xF)
                count = try integer(at: offset + 2, width: width)
                references = offset + 2 + width
            }
            let total = type == 0xD ? count.multipliedReportingOverflow(by: 2) : (partialValue: count, overflow: false)
            guard !total.overflow, total.partialValue <= (tableOffset - references) / referenceSize else {
                throw reader.error("a container of \(count) entries runs past the object area", at: offset)
            }
            return Container(object: object, references: references, count: total.partialValue)
        }

        func reference(_ container: Container, _ index: Int) throws(ArtifactError) -> Int {
            let at = container.references + index * referenceSize
            let object = try integer(at: at, width: referenceSize)
            guard object < objectCount else { throw reader.error("a reference to object \(object) of \(objectCount)", at: at) }
            return object
        }
    }

    static func check(_ bytes: [UInt8], file: String, base: Int, maximumDepth: Int, maximumValues: Int) throws(ArtifactError) {
        let table = try trailer(bytes, file: file, base: base)
        let limits = Limits(depth: maximumDepth, values: maximumValues)
        // What each object measures once walked: its height (0 for anything but a container; -1 not walked yet,
        // -2 on the current path, so that a cycle is seen) and its values.
        var height = [Int32](repeating: -1, count: table.objectCount)
        var values = [Int32](repeating: 1, count: table.objectCount)
        let top = try table.integer(at: bytes.count - 16, width: 8)
        guard top < table.objectCount else {
            throw table.reader.error("the top object \(top) is not one of the \(table.objectCount)", at: bytes.count - 16)
        }
        guard let root = try table.container(top) else { return }
        var path = [root]
        height[top] = -2
        while let current = path.last {
            guard current.next < current.count else {
                path.removeLast()
                height[current.object] = Int32(current.height)
                values[current.object] = Int32(current.values)
                try grow(&path, by: current.height, current.values, table, limits)
                continue
            }
            let child = try table.reference(current, current.next)
            path[path.count - 1].next += 1
            switch height[child] {
            case -2:
                throw table.reader.error("object \(child) contains itself", at: try table.objectOffset(child))
            case -1:
                guard let container = try table.container(child) else {
                    height[child] = 0
                    try grow(&path, by: 0, 1, table, limits)
                    continue
                }
                guard path.count < limits.depth else { throw tooDeep(table, child, limits.depth) }
                height[child] = -2
                path.append(container)
            default:
                guard path.count + Int(height[child]) <= limits.depth else { throw tooDeep(table, child, limits.depth) }
                try grow(&path, by: Int(height[child]), Int(values[child]), table, limits)
            }
        }
    }

    /// Adds a child's height and values to the container at the end of `path`, if any.
    private static func grow(_ path: inout [Container], by height: Int, _ values: Int, _ table: Table, _ limits: Limits) throws(ArtifactError) {
        guard !path.isEmpty else { return }
        path[path.count - 1].height = max(path[path.count - 1].height, height + 1)
        path[path.count - 1].values += values
        guard path[path.count - 1].values <= limits.values else {
            let offset = (try? table.objectOffset(path[path.count - 1].object)) ?? 0
            throw table.reader.error("it expands to more than \(limits.values) values", at: offset)
        }
    }

    private static func tooDeep(_ table: Table, _ object: Int, _ maximumDepth: Int) -> ArtifactError {
        let offset = (try? table.objectOffset(object)) ?? 0
        return table.reader.error("arrays and dictionaries nest deeper than \(maximumDepth) levels", at: offset)
    }

    private static func trailer(_ bytes: [UInt8], file: String, base: Int) throws(ArtifactError) -> Table {
        let reader = ByteReader(bytes, base: base, file: file, structure: "binary property list", bigEndian: true)
        guard bytes.count >= 8 + 32 else { throw reader.error("\(bytes.count) bytes, too short for a header and a trailer", at: 0) }
        let end = bytes.count - 32
        let offsetSize = Int(try reader.uint8(at: end + 6))
        let referenceSize = Int(try reader.uint8(at: end + 7))
        guard (1...8).contains(offsetSize), (1...8).contains(referenceSize) else {
            throw reader.error("offset size \(offsetSize) or reference size \(referenceSize) is not 1 to 8", at: end + 6)
        }
        let count = try reader.uint64(at: end + 8)
        let tableOffset = try reader.uint64(at: end + 24)
        guard count >= 1, count <= UInt64(bytes.count), tableOffset >= 9, tableOffset <= UInt64(end),
            count <= (UInt64(end) - tableOffset) / UInt64(offsetSize)
        else {
            throw reader.error("\(count) objects with an offset table at \(tableOffset) do not fit before the trailer", at: end + 8)
        }
        return Table(reader: reader, offsetSize: offsetSize, referenceSize: referenceSize, objectCount: Int(count), tableOffset: Int(tableOffset))
    }
}
