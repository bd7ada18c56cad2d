/// Android's binary XML, as aapt and aapt2 compile `AndroidManifest.xml` into an APK (AOSP
/// `libs/androidfw/include/androidfw/ResourceTypes.h`: `ResXMLTree_header`, `ResXMLTree_node`,
/// `ResXMLTree_attrExt`, `ResXMLTree_attribute`, `Res_value`; read as `ResXMLTree::setTo` and
/// `ResXMLParser::nextNode` read it). Hand-written: no Swift library reads this format.
///
/// The document is a chunk (`RES_XML_TYPE`) holding a string pool, an optional resource map (the resource id
/// of each attribute name, by string index) and the nodes in document order. Unknown chunks are skipped, as
/// Android skips them.
public enum BinaryXMLReader {
    static let xmlType: UInt16 = 0x0003
    static let resourceMapType: UInt16 = 0x0180
    static let startNamespaceType: UInt16 = 0x0100
    static let endNamespaceType: UInt16 = 0x0101
    static let startElementType: UInt16 = 0x0102
    static let endElementType: UInt16 = 0x0103

    /// Whether `bytes` start as binary XML does.
    public static func looksLikeBinaryXML(_ bytes: some Collection<UInt8>) -> Bool {
        bytes.starts(with: [0x03, 0x00, 0x08, 0x00])
    }

    /// The document's root element.
    public static func read(_ bytes: [UInt8], file: String, limits: XMLLimits = .standard) throws -> AndroidXMLElement {
        let whole = ByteReader(bytes, file: file, structure: "binary XML")
        guard try whole.uint16(at: 0) == xmlType else {
            throw whole.error("not binary XML: the first chunk's type is not RES_XML_TYPE (0x0003)", at: 0)
        }
        let headerSize = Int(try whole.uint16(at: 2))
        let size = try whole.size32(at: 4)
        guard headerSize >= 8, size >= headerSize, size <= bytes.count else {
            throw whole.error("a document header of \(headerSize) bytes declaring \(size) bytes, in a file of \(bytes.count)", at: 0)
        }
        let document = try whole.reader(at: 0, count: size, "the document")
        var state = State(limits: limits)
        var offset = headerSize
        while offset < size {
            let chunk = try Chunk(document, at: offset)
            try state.take(chunk)
            offset += chunk.reader.count
        }
        return try state.finish(document)
    }

    /// One chunk: its type, header size and bytes.
    struct Chunk {
        let type: UInt16
        let headerSize: Int
        let reader: ByteReader

        /// The chunk at `offset` of `parent`, its sizes checked as `validate_chunk` checks them.
        init(_ parent: ByteReader, at offset: Int, structure: String? = nil) throws {
            type = try parent.uint16(at: offset)
            headerSize = Int(try parent.uint16(at: offset + 2))
            let size = try parent.size32(at: offset + 4)
            guard headerSize >= 8, size >= headerSize else {
                throw parent.error("a chunk (type 0x\(String(type, radix: 16))) with header size \(headerSize) and size \(size)", at: offset)
            }
            guard size <= parent.count - offset else {
                throw parent.error(
                    "a chunk (type 0x\(String(type, radix: 16))) of \(size) bytes runs past its parent's end at \(parent.base + parent.count)",
                    at: offset
                )
            }
            reader = try parent.reader(at: offset, count: size, structure: structure, "a chunk")
        }
    }
}
