import Foundation
import Testing

@testable import AppFlipArtifacts

/// Hostile profiles, property lists, DER entitlements and archives: each refused with the structure, the offset
/// and what was wrong. The time limit reports a case that runs long, though it cannot stop a read that loops.
@Suite(.timeLimit(.minutes(1)))
struct HostileInputTests {
    /// A DER TLV, for building entitlements by hand.
    static func tlv(_ tag: UInt8, _ body: [UInt8]) -> [UInt8] {
        let length: [UInt8] =
            body.count < 0x80 ? [UInt8(body.count)] : [0x83, UInt8(body.count >> 16), UInt8((body.count >> 8) & 0xFF), UInt8(body.count & 0xFF)]
        return [tag] + length + body
    }

    static func entitlements(_ value: [UInt8], version: UInt8 = 1, tag: UInt8 = 0x70) -> [UInt8] {
        tlv(tag, tlv(0x02, [version]) + value)
    }

    static func pair(_ key: String, _ value: [UInt8]) -> [UInt8] { tlv(0x30, tlv(0x0C, Array(key.utf8)) + value) }

    /// `openssl cms -sign` of `content` with the test profile signer; detached when asked.
    static func signed(_ content: [UInt8], detached: Bool = false) async throws -> [UInt8] {
        let folder = try await AppleArtifactFixtures.folder()
        let input = folder + "/content-\(UUID().uuidString)"
        try Data(content).write(to: URL(fileURLWithPath: input))
        defer { try? FileManager.default.removeItem(atPath: input) }
        var arguments = [
            "cms", "-sign", "-binary", "-outform", "DER", "-in", input, "-signer", folder + "/pki/profile-signer.pem", "-inkey",
            folder + "/pki/profile-signer.key",
        ]
        if !detached { arguments.append("-nodetach") }
        arguments += ["-out", input + ".p7"]
        try await ArtifactTools.output("openssl", arguments)
        defer { try? FileManager.default.removeItem(atPath: input + ".p7") }
        return [UInt8](try Data(contentsOf: URL(fileURLWithPath: input + ".p7")))
    }

    static func expect(_ structure: String, _ offset: Int?, _ says: String, _ read: () throws(ArtifactError) -> Void) {
        do {
            try read()
            Issue.record("read without error; expected \(structure): \(says)")
        } catch {
            #expect(error.structure == structure, "\(error)")
            #expect(error.offset == offset, "\(error)")
            #expect(error.message.contains(says), "\(error)")
        }
    }

    static func deepXML(_ depth: Int) -> [UInt8] {
        Array(
            ("<?xml version=\"1.0\"?><plist version=\"1.0\">" + String(repeating: "<array>", count: depth)
                + String(repeating: "</array>", count: depth) + "</plist>").utf8
        )
    }

    // MARK: Provisioning profiles

    @Test func profilesWithoutAPropertyList() async throws {
        let plist = Array(try PropertyListSerialization.data(fromPropertyList: ["Name": "x"], format: .xml, options: 0))
        let detached = try await Self.signed(plist, detached: true)
        Self.expect("CMS SignedData", 0, "no encapsulated content") { () throws(ArtifactError) in
            _ = try ProvisioningProfile(bytes: detached, file: "p")
        }
        let text = try await Self.signed(Array("hello".utf8))
        let textAt = try #require(text.firstRange(of: Array("hello".utf8))).lowerBound
        Self.expect("property list", textAt, "neither an XML nor a binary") { () throws(ArtifactError) in
            _ = try ProvisioningProfile(bytes: text, file: "p")
        }
        let deep = try await Self.signed(Self.deepXML(1000))
        let deepAt = try #require(deep.firstRange(of: Array("<?xml".utf8))).lowerBound + 42 + 7 * 64
        Self.expect("property list", deepAt, "nest deeper than 64") { () throws(ArtifactError) in _ = try ProvisioningProfile(bytes: deep, file: "p")
        }
        let array = try await Self.signed(Array(try PropertyListSerialization.data(fromPropertyList: ["a"], format: .xml, options: 0)))
        let arrayAt = try #require(array.firstRange(of: Array("<?xml".utf8))).lowerBound
        Self.expect("property list", arrayAt, "must be a dictionary") { () throws(ArtifactError) in
            _ = try ProvisioningProfile(bytes: array, file: "p")
        }
        let bare = try await Self.signed(plist)
        let bareAt = try #require(bare.firstRange(of: Array("<?xml".utf8))).lowerBound
        Self.expect("provisioning profile", bareAt, "no Entitlements dictionary") { () throws(ArtifactError) in
            _ = try ProvisioningProfile(bytes: bare, file: "p")
        }
    }

    @Test func profilesThatAreNotCMS() async throws {
        let good = try await AppleArtifactFixtures.bytes("development.mobileprovision")
        Self.expect("CMS SignedData", 0, "not BER-encoded") { () throws(ArtifactError) in
            _ = try ProvisioningProfile(bytes: Array(good.prefix(100)), file: "p")
        }
        // ContentInfo of type data (1.2.840.113549.1.7.1), not signed data.
        let data = Self.tlv(0x30, Self.tlv(0x06, [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x01]) + Self.tlv(0xA0, Self.tlv(0x04, [1])))
        Self.expect("CMS SignedData", 2, "not signed data") { () throws(ArtifactError) in _ = try ProvisioningProfile(bytes: data, file: "p") }
        let nested = Array(repeating: [0x30, 0x80], count: 60).flatMap { $0 } + [UInt8](repeating: 0, count: 120)
        Self.expect("CMS SignedData", 0, "not BER-encoded") { () throws(ArtifactError) in _ = try ProvisioningProfile(bytes: nested, file: "p") }
        let huge = good + [UInt8](repeating: 0, count: ProvisioningProfile.maximumSize)
        Self.expect("provisioning profile", 0, "over the limit of 1048576") { () throws(ArtifactError) in
            _ = try ProvisioningProfile(bytes: huge, file: "p")
        }
    }

    // MARK: Property lists

    /// A binary property list of `objects` (each a marker and its bytes), `top` first, with 1-byte references and
    /// 2-byte offsets unless told.
    static func bplist(_ objects: [[UInt8]], offsetSize: UInt8 = 2, referenceSize: UInt8 = 1, count: UInt64? = nil) -> [UInt8] {
        var bytes = Array("bplist00".utf8)
        var offsets: [Int] = []
        for object in objects {
            offsets.append(bytes.count)
            bytes += object
        }
        let table = bytes.count
        for offset in offsets { bytes += [UInt8(offset >> 8), UInt8(offset & 0xFF)] }
        bytes += [0, 0, 0, 0, 0, 0, offsetSize, referenceSize]
        let trailer: [UInt64] = [count ?? UInt64(objects.count), 0, UInt64(table)]
        for value in trailer { bytes += (0..<8).reversed().map { UInt8(truncatingIfNeeded: value >> UInt64(8 * $0)) } }
        return bytes
    }

    @Test func propertyListsThatAreTooDeepTooBigOrCyclic() throws {
        func read(_ bytes: [UInt8]) throws(ArtifactError) { _ = try PropertyListReader.read(bytes, file: "p") }
        let xml = Self.deepXML(1000)
        Self.expect("property list", 42 + 7 * 64, "nest deeper than 64") { () throws(ArtifactError) in try read(xml) }
        // A chain of 200 one-element arrays: object i holds object i + 1.
        let chain = Self.bplist((0..<200).map { $0 == 199 ? [0xA0] : [0xA1, UInt8($0 + 1)] })
        Self.expect("binary property list", 8 + 2 * 64, "nest deeper than 64") { () throws(ArtifactError) in try read(chain) }
        let cycle = Self.bplist([[0xA1, 0]])
        Self.expect("binary property list", 8, "object 0 contains itself") { () throws(ArtifactError) in try read(cycle) }
        let sizes = Self.bplist([[0xA0]], offsetSize: 0)
        Self.expect("binary property list", sizes.count - 26, "offset size 0") { () throws(ArtifactError) in try read(sizes) }
        let many = Self.bplist([[0xA0]], count: 1 << 40)
        Self.expect("binary property list", many.count - 24, "do not fit before the trailer") { () throws(ArtifactError) in try read(many) }
        let counted = Self.bplist([[0xAF, 0x12, 0x7F, 0xFF, 0xFF, 0xFF]])
        Self.expect("binary property list", 8, "runs past the object area") { () throws(ArtifactError) in try read(counted) }
        let dangling = Self.bplist([[0xA1, 7]])
        Self.expect("binary property list", 9, "a reference to object 7 of 1") { () throws(ArtifactError) in try read(dangling) }
        let openStep = Array("{ CFBundleIdentifier = evil; }".utf8)
        Self.expect("property list", 0, "neither an XML nor a binary") { () throws(ArtifactError) in try read(openStep) }
        let huge = Array("<plist>".utf8) + [UInt8](repeating: 0x20, count: PropertyListReader.maximumSize)
        Self.expect("property list", 0, "over the limit of 1048576") { () throws(ArtifactError) in try read(huge) }
        let laughs = Array(
            """
            <?xml version="1.0"?><!DOCTYPE plist [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">
            <!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;"><!ENTITY d "&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;">]>
            <plist version="1.0"><dict><key>k</key><string>&d;&d;&d;&d;&d;&d;&d;&d;</string></dict></plist>
            """.utf8
        )
        Self.expect("property list", 0, "Foundation could not read it") { () throws(ArtifactError) in try read(laughs) }
    }

    /// Found by FuzzPropertyList: Foundation on Linux crashes bridging a binary set to Swift (a set holding a
    /// dictionary, here). Sets, ordered sets and keyed-archiver UIDs are no property-list type, and are refused
    /// before Foundation sees them.
    @Test func binarySetsAndUIDsNeverReachFoundation() throws {
        func read(_ bytes: [UInt8]) throws(ArtifactError) { _ = try PropertyListReader.read(bytes, file: "p") }
        for (marker, name) in [(0xC1, "a set"), (0xB1, "an ordered set")] as [(UInt8, String)] {
            let set = Self.bplist([[marker, 1], [0xD0]])
            Self.expect("binary property list", 8, "\(name) (marker 0x\(String(marker, radix: 16)))") { () throws(ArtifactError) in try read(set) }
        }
        let uid = Self.bplist([[0xA1, 1], [0x80, 0x01]])
        Self.expect("binary property list", 10, "a keyed-archiver UID (marker 0x80)") { () throws(ArtifactError) in try read(uid) }
    }

    /// What Foundation and swift-asn1 would allocate is bounded by counting first: values as Foundation would
    /// expand them, ASN.1 elements as swift-asn1 would build them.
    @Test func documentsThatWouldExpandPastTheirBytes() {
        // Forty two-element arrays, each holding the next twice: 2^40 values in 128 bytes. Object 25 is the
        // first to pass 16384 values (2^15 - 1); objects are 3 bytes from offset 8.
        let dag = Self.bplist((0..<40).map { (index: Int) -> [UInt8] in index == 39 ? [0x51, 0x61] : [0xA2, UInt8(index + 1), UInt8(index + 1)] })
        Self.expect("binary property list", 8 + 3 * 25, "it expands to more than 16384 values") { () throws(ArtifactError) in
            _ = try PropertyListReader.read(dag, file: "p")
        }
        // 20,000 strings: the 16,383rd string (after <plist> and <array>) is one value too many.
        let strings = Array(
            ("<?xml version=\"1.0\"?><plist version=\"1.0\"><array>" + String(repeating: "<string>a</string>", count: 20000) + "</array></plist>")
                .utf8
        )
        Self.expect("property list", 49 + 18 * 16382, "more than 16384 values") { () throws(ArtifactError) in
            _ = try PropertyListReader.read(strings, file: "p")
        }
        // A profile of 100,000 NULL elements: the 16,385th starts at 17 + 2 * 16380.
        let oid: [UInt8] = [0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x02]
        let nulls: [UInt8] = Array(repeating: [0x05, 0x00], count: 100_000).flatMap { $0 }
        let head: [UInt8] = [0x30, 0x80] + oid + [0xA0, 0x80, 0x30, 0x80]
        let flat: [UInt8] = head + nulls + [0, 0, 0, 0, 0, 0]
        Self.expect("CMS SignedData", 17 + 2 * 16380, "more than 16384 ASN.1 elements") { () throws(ArtifactError) in
            _ = try ProvisioningProfile(bytes: flat, file: "p")
        }
        // DER entitlements of 20,000 booleans: three elements and 8 bytes each, after three; pair 5460's key is the 16,385th.
        let pairs = (0..<20000).flatMap { _ in Self.pair("k", Self.tlv(0x01, [0xFF])) }
        Self.expect("DER entitlements", 13 + 8 * 5460 + 2, "more than 16384 ASN.1 elements") { () throws(ArtifactError) in
            _ = try DEREntitlements.read(Self.entitlements(Self.tlv(0xB0, pairs)), file: "e", base: 0)
        }
    }

    // MARK: DER entitlements

    @Test func derEntitlementsOutsideTheirGrammar() {
        func read(_ bytes: [UInt8]) throws(ArtifactError) { _ = try DEREntitlements.read(bytes, file: "e", base: 0) }
        let dictionary = Self.tlv(0xB0, Self.pair("get-task-allow", Self.tlv(0x01, [0xFF])))
        #expect((try? DEREntitlements.read(Self.entitlements(dictionary), file: "e", base: 0)) == ["get-task-allow": .bool(true)])
        Self.expect("DER entitlements", 0, "not an [APPLICATION 16] envelope") { () throws(ArtifactError) in
            try read(Self.entitlements(dictionary, tag: 0x30))
        }
        Self.expect("DER entitlements", 0, "not version 1") { () throws(ArtifactError) in try read(Self.entitlements(dictionary, version: 2)) }
        let array = Self.tlv(0x30, [])
        Self.expect("DER entitlements", 5, "not a dictionary") { () throws(ArtifactError) in try read(Self.entitlements(array)) }
        let octets = Self.tlv(0xB0, Self.pair("k", Self.tlv(0x04, [1])))
        Self.expect("DER entitlements", 12, "is not a type entitlements use") { () throws(ArtifactError) in try read(Self.entitlements(octets)) }
        let numericKey = Self.tlv(0xB0, Self.tlv(0x30, Self.tlv(0x02, [1]) + Self.tlv(0x01, [0])))
        Self.expect("DER entitlements", 9, "a dictionary key is not a UTF8String") { () throws(ArtifactError) in
            try read(Self.entitlements(numericKey))
        }
        let deep = (0..<60).reduce(Self.tlv(0x30, [])) { inner, _ in Self.tlv(0x30, inner) }
        Self.expect("DER entitlements", 0, "not DER") { () throws(ArtifactError) in try read(Self.entitlements(Self.tlv(0xB0, Self.pair("k", deep))))
        }
        Self.expect("DER entitlements", 0, "not DER") { () throws(ArtifactError) in try read(Self.entitlements(dictionary) + [0]) }
        let huge =
            Self.entitlements(Self.tlv(0xB0, Self.pair("k", Self.tlv(0x0C, [UInt8](repeating: 0x61, count: 60000)))))
            + [UInt8](repeating: 0, count: DEREntitlements.maximumSize)
        Self.expect("DER entitlements", 0, "over the limit") { () throws(ArtifactError) in try read(huge) }
    }

    // MARK: Archives

    static func ipa(_ bytes: [UInt8], name: String = "hostile.ipa") throws(ArtifactError) {
        _ = try IOSArtifacts.read(MemoryBytes(name: name, bytes: bytes), kind: .ipa)
    }

    @Test func archivesARealReaderMustRefuse() async throws {
        let info = "Payload/Demo.app/Info.plist"
        let cases: [(file: String, structure: String, offset: (([UInt8]) -> Int?), says: String)] = [
            ("dot-dot.ipa", "zip central directory", { $0.lastRange(of: Array("Payload/Demo.app/../../evil".utf8)) }, "climbs out of the archive"),
            ("duplicate.ipa", "zip central directory", { $0.lastRange(of: Array(info.utf8)) }, "a second entry named"),
            ("bomb-declared.ipa", "zip entry", { _ in 1 << 20 }, "declares 67108864 bytes, over the limit of 1048576"),
            ("bomb-lying.ipa", "zip entry", { _ in 300 }, "inflates past the 300 bytes it declares"),
            ("endless-deflate.ipa", "zip entry", { _ in nil }, "does not end within its 1005 compressed bytes"),
            ("crc.ipa", "zip entry", { _ in nil }, "its CRC-32 is"),
            ("local-name.ipa", "zip local header", { _ in 30 }, "the local header names"),
            ("no-app.ipa", "IPA", { _ in nil }, "this one holds none"),
            ("truncated.ipa", "zip end of central directory", { $0.count - 22 }, "no end of central directory record"),
        ]
        for test in cases {
            let bytes = try await AppleArtifactFixtures.bytes("hostile/" + test.file)
            Self.expect(test.structure, test.offset(bytes), test.says) { () throws(ArtifactError) in try Self.ipa(bytes) }
        }
    }

    @Test func archivesWithALyingEndRecord() async throws {
        let good = try await AppleArtifactFixtures.bytes("Demo.ipa")
        let end = good.count - 22
        var count = good
        count[end + 10] = 0xFE
        count[end + 11] = 0xFF
        let directory = (0..<4).reduce(0) { $0 | Int(good[end + 16 + $1]) << (8 * $1) }
        Self.expect("zip central directory", directory, "65534 entries cannot fit") { () throws(ArtifactError) in try Self.ipa(count) }
        let past = good.patching32(end + 16, 0x00FF_FFFF)
        Self.expect("zip end of central directory", end + 12, "does not end before this record") { () throws(ArtifactError) in try Self.ipa(past) }
    }
}

extension [UInt8] {
    /// The start of the last occurrence of `pattern`.
    func lastRange(of pattern: [UInt8]) -> Int? {
        guard pattern.count <= count else { return nil }
        return stride(from: count - pattern.count, through: 0, by: -1).first { self[$0..<($0 + pattern.count)].elementsEqual(pattern) }
    }
}
