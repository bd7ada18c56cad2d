import AppFlipArtifacts
import AppFlipTestSupport
import Foundation
import Testing

/// Hostile artifacts, each refused with an ``ArtifactError`` that names the structure (and, for a binary
/// structure, the offset), in bounded time and memory, or read safely: zip bombs, escaping names, truncated and
/// overlapping signing blocks, string pools with bad offsets and lengths, deep and huge XML, protobuf with
/// unknown, repeated or deeply nested fields, CMS that is not CMS, entity expansion.
@Suite("Hostile Android artifacts", .timeLimit(.minutes(1)))
struct HostileArtifactTests {
    struct Case: CustomStringConvertible, Sendable {
        let description: String
        /// The structure the error must name; nil when the input must be read without error.
        let structure: String?
        let hasOffset: Bool
        /// What the message must say, where the structure alone would not tell the cause.
        var says: String? = nil
        let run: @Sendable () async throws -> Void
    }

    static func apk(_ bytes: [UInt8]) throws { _ = try AndroidArtifactReader.readAPK(try ArtifactArchive(bytes: bytes, file: "hostile.apk")) }
    static func signatures(_ bytes: [UInt8]) throws { _ = try APKSignatures.read(try ArtifactArchive(bytes: bytes, file: "hostile.apk")) }
    static func artifact(_ name: String) async -> [UInt8] {
        (try? Array(Data(contentsOf: URL(fileURLWithPath: try await AndroidTestArtifacts.path(name))))) ?? []
    }
    static func manifest() async -> [UInt8] { await artifact("binary-AndroidManifest.xml") }
    static func binaryXML(_ bytes: [UInt8], limits: XMLLimits = .standard) throws {
        _ = try BinaryXMLReader.read(bytes, file: "AndroidManifest.xml", limits: limits)
    }

    static let zipCases: [Case] = [
        Case(description: "a zip bomb whose size is declared", structure: "zip entry", hasOffset: true) {
            try apk(try HostileBytes.deflatedZeros(name: "AndroidManifest.xml", size: 40 << 20))
        },
        Case(description: "a zip bomb whose declared size lies", structure: "zip entry", hasOffset: true) {
            var bytes = try HostileBytes.deflatedZeros(name: "AndroidManifest.xml", size: 40 << 20)
            let directory = HostileBytes.directoryOffset(bytes)
            bytes = HostileBytes.patch32(bytes, at: directory + 24, 4096)
            try apk(HostileBytes.patch32(bytes, at: 22, 4096))
        },
        Case(
            description: "a deflate stream that never ends",
            structure: "zip entry",
            hasOffset: false,
            says: "the deflate stream does not end within its 1005 compressed bytes"
        ) {
            // A non-final stored block that claims 65,535 bytes, 1,000 of them, then the end of the entry:
            // ZIPFoundation's Archive.extract reads on to the end of the file and then loops forever (its pull
            // request 389). Its declared size keeps within 200 times its compressed size, the ratio bound.
            let stream: [UInt8] = [0x00, 0xFF, 0xFF, 0x00, 0x00] + [UInt8](repeating: 0x61, count: 1000)
            try apk(HostileBytes.zip([HostileBytes.Entry(name: "AndroidManifest.xml", deflated: stream, size: 100_000, crc: 0)]))
        },
        Case(description: "an entry named ../../evil", structure: "zip central directory", hasOffset: true) {
            try apk(HostileBytes.zip([("AndroidManifest.xml", await manifest()), ("../../evil", [1])]))
        },
        Case(description: "an entry with an absolute name", structure: "zip central directory", hasOffset: true) {
            try apk(HostileBytes.zip([("/etc/passwd", [1])]))
        },
        Case(description: "two entries of one name", structure: "zip central directory", hasOffset: true, says: "a second entry named") {
            try apk(HostileBytes.zip([("AndroidManifest.xml", await manifest()), ("AndroidManifest.xml", [0])]))
        },
        Case(description: "no end of central directory", structure: "zip end of central directory", hasOffset: true) {
            try apk([UInt8](repeating: 0x41, count: 100_000))
        },
        Case(description: "a central directory past the end of the file", structure: "zip end of central directory", hasOffset: true) {
            let bytes = HostileBytes.zip([("AndroidManifest.xml", await manifest())])
            try apk(HostileBytes.patch32(bytes, at: bytes.count - 22 + 16, 1 << 30))
        },
        Case(description: "a comment holding a second end record", structure: "zip end of central directory", hasOffset: true) {
            try apk(
                HostileBytes.zip(
                    [("AndroidManifest.xml", await manifest())],
                    comment: HostileBytes.le32(0x0605_4b50) + [UInt8](repeating: 0, count: 10)
                )
            )
        },
        Case(description: "META-INF/CERT.RSA that is not PKCS #7", structure: "PKCS #7 SignedData", hasOffset: true) {
            try signatures(HostileBytes.zip([("AndroidManifest.xml", await manifest()), ("META-INF/CERT.RSA", Array("not a signature".utf8))]))
        },
        Case(
            description: "META-INF/CERT.RSA of 100,000 ASN.1 elements",
            structure: "PKCS #7 SignedData",
            hasOffset: true,
            says: "more than 16384 ASN.1 elements"
        ) {
            let elements: [UInt8] = [0x30, 0x80] + Array(repeating: [UInt8]([0x05, 0x00]), count: 100_000).flatMap { $0 } + [0, 0]
            try signatures(HostileBytes.zip([("AndroidManifest.xml", await manifest()), ("META-INF/CERT.RSA", elements)]))
        },
    ]

    /// The signed v2 APK with its signing block's start, and the central directory's offset.
    static func signed() async -> (bytes: [UInt8], start: Int, directory: Int) {
        let bytes = await artifact("app-v2.apk")
        let directory = HostileBytes.directoryOffset(bytes)
        let size = HostileBytes.read32(bytes, directory - 24)
        return (bytes, directory - size - 8, directory)
    }

    static let signingBlockCases: [Case] = [
        Case(description: "a signing block larger than the file before it", structure: "APK Signing Block", hasOffset: true) {
            let apk = await signed()
            try signatures(HostileBytes.patch64(apk.bytes, at: apk.directory - 24, UInt64(apk.directory)))
        },
        Case(description: "a signing block whose two sizes differ", structure: "APK Signing Block", hasOffset: true) {
            let apk = await signed()
            try signatures(HostileBytes.patch64(apk.bytes, at: apk.start, UInt64(apk.directory - apk.start)))
        },
        Case(description: "a pair longer than the block", structure: "APK Signing Block", hasOffset: true) {
            let apk = await signed()
            try signatures(HostileBytes.patch64(apk.bytes, at: apk.start + 8, 1 << 40))
        },
        Case(description: "a v2 signer list longer than its block", structure: "APK Signature Scheme v2 block", hasOffset: true) {
            let apk = await signed()
            try signatures(HostileBytes.patch32(apk.bytes, at: apk.start + 20, 0x7FFF_FFFF))
        },
        Case(description: "a signing block overlapping an entry", structure: "APK Signing Block", hasOffset: true) {
            let apk = await signed()
            try signatures(HostileBytes.patch32(apk.bytes, at: apk.directory + 42, apk.start + 8))
        },
        Case(description: "two v2 blocks", structure: "APK Signing Block", hasOffset: true) {
            let apk = await signed()
            let pairs = Array(apk.bytes[(apk.start + 8)..<(apk.directory - 24)])
            let first = Array(pairs[0..<(8 + HostileBytes.read32(pairs, 0))])
            let body = pairs + first
            let size = UInt64(body.count + 24)
            var block = HostileBytes.patch64([UInt8](repeating: 0, count: 8), at: 0, size) + body
            block += HostileBytes.patch64([UInt8](repeating: 0, count: 8), at: 0, size) + Array("APK Sig Block 42".utf8)
            var out = Array(apk.bytes[..<apk.start]) + block + Array(apk.bytes[apk.directory...])
            out = HostileBytes.patch32(out, at: out.count - 22 + 16, apk.start + block.count)
            try signatures(out)
        },
    ]

    static let xmlCases: [Case] = [
        Case(description: "a string pool with more strings than fit", structure: "binary XML string pool", hasOffset: true) {
            try binaryXML(HostileBytes.patch32(await manifest(), at: 16, 0x00FF_FFFF))
        },
        Case(description: "a string offset past the string data", structure: "binary XML string pool", hasOffset: true) {
            try binaryXML(HostileBytes.patch32(await manifest(), at: 36, 0x7FFF_0000))
        },
        Case(description: "a string length past the string data", structure: "binary XML string pool", hasOffset: true) {
            let bytes = await manifest()
            let stringsStart = 8 + HostileBytes.read32(bytes, 28)
            var copy = bytes
            copy.replaceSubrange(
                (stringsStart + HostileBytes.read32(bytes, 36))..<(stringsStart + HostileBytes.read32(bytes, 36) + 2),
                with: [0xFF, 0x7F]
            )
            try binaryXML(copy)
        },
        Case(description: "a chunk larger than the document", structure: "binary XML", hasOffset: true) {
            try binaryXML(HostileBytes.patch32(await manifest(), at: 12, 1 << 30))
        },
        Case(description: "elements nested deeper than the limit", structure: "binary XML start element", hasOffset: true) {
            let bytes = await manifest()
            var offset = 8 + HostileBytes.read32(bytes, 12)
            while HostileBytes.read16(bytes, offset) != 0x0102 { offset += HostileBytes.read32(bytes, offset + 4) }
            let element = Array(bytes[offset..<(offset + HostileBytes.read32(bytes, offset + 4))])
            var deep = bytes
            deep.insert(contentsOf: (0..<200).flatMap { _ in element }, at: offset + element.count)
            deep = HostileBytes.patch32(deep, at: 4, deep.count)
            try binaryXML(deep)
        },
        Case(description: "more elements than the limit", structure: "binary XML start element", hasOffset: true) {
            try binaryXML(await manifest(), limits: XMLLimits(maxDepth: 64, maxElements: 5, maxAttributes: 1024))
        },
        Case(description: "source XML with exponential entities", structure: "XML", hasOffset: false) {
            var text = "<?xml version=\"1.0\"?><!DOCTYPE manifest [<!ENTITY a0 \"aaaaaaaaaa\">"
            for level in 1..<10 { text += "<!ENTITY a\(level) \"" + String(repeating: "&a\(level - 1);", count: 10) + "\">" }
            text += "]><manifest package=\"&a9;\"/>"
            _ = try SourceXMLReader.read(Array(text.utf8), file: "AndroidManifest.xml")
        },
        Case(description: "source XML nested deeper than the limit", structure: "XML", hasOffset: false) {
            let text = "<manifest>" + String(repeating: "<a>", count: 500) + String(repeating: "</a>", count: 500) + "</manifest>"
            _ = try SourceXMLReader.read(Array(text.utf8), file: "AndroidManifest.xml")
        },
    ]

    static let protoCases: [Case] = [
        Case(description: "protobuf with an unknown field is read", structure: nil, hasOffset: false) {
            let bytes = await artifact("proto-AndroidManifest.xml") + [0xF8, 0x06, 0x01]
            let manifest = try AndroidArtifactReader.readManifest(bytes, kind: .protoManifest, file: "AndroidManifest.xml").manifest
            guard manifest.package == "com.example.partner" else { throw ArtifactError("test", file: "", "the unknown field changed the manifest") }
        },
        Case(description: "protobuf with its oneof repeated as text", structure: "protobuf XmlNode", hasOffset: true) {
            _ = try ProtoXMLReader.read(await artifact("proto-AndroidManifest.xml") + [0x12, 0x01, 0x78], file: "AndroidManifest.xml")
        },
        Case(description: "truncated protobuf", structure: "protobuf XmlNode", hasOffset: false) {
            let bytes = await artifact("proto-AndroidManifest.xml")
            _ = try ProtoXMLReader.read(Array(bytes.prefix(bytes.count / 2)), file: "AndroidManifest.xml")
        },
        Case(description: "protobuf nested deeper than the limit", structure: "protobuf XmlNode", hasOffset: false) {
            _ = try ProtoXMLReader.read(HostileBytes.nestedXmlNode(depth: 2_000), file: "AndroidManifest.xml")
        },
    ]

    @Test("each hostile artifact gets a clear error", arguments: zipCases + signingBlockCases + xmlCases + protoCases)
    func refused(_ hostile: Case) async throws {
        #expect(await !Self.manifest().isEmpty, "the test artifacts were not built")
        do {
            try await hostile.run()
            #expect(hostile.structure == nil, "\(hostile) was read without error")
        } catch let error as ArtifactError {
            let structure = try #require(hostile.structure, "\(hostile): \(error)")
            #expect(error.structure.contains(structure), "\(hostile): \(error)")
            if hostile.hasOffset { #expect(error.offset != nil, "\(hostile): \(error)") }
            if let says = hostile.says { #expect(error.message.contains(says), "\(hostile): \(error)") }
        }
    }
}
