/// A Mach-O slice's embedded code signature: the SuperBlob that LC_CODE_SIGNATURE points at. Its layout is
/// xnu's `osfmk/kern/cs_blobs.h`; it is checked as xnu's `cs_validate_csblob` (bsd/kern/ubc_subr.c) checks it
/// before trusting an offset: every index entry inside the SuperBlob, every blob's length inside what remains,
/// a CodeDirectory's offsets inside the CodeDirectory, one entitlements blob of each form, no two CodeDirectories
/// of one hash type. Hashes and the CMS signature are not verified: the reader reports what the binary claims.
public struct CodeSignature: Sendable, Hashable {
    static let structure = "code signature"
    /// The largest signature read: a CodeDirectory holds one hash per 4 KiB page, so a 1 GiB executable's
    /// signature is about 8 MiB with two hash types.
    static let maximumSize = 32 << 20

    /// Every CodeDirectory, in index order (a SHA-1 one and a SHA-256 one, often).
    public let codeDirectories: [CodeDirectory]
    /// The CodeDirectory iOS uses: the strongest hash type.
    public let codeDirectory: CodeDirectory
    /// The entitlements as XML (slot 5, CSMAGIC_EMBEDDED_ENTITLEMENTS).
    public let entitlementsXML: Entitlements?
    /// The entitlements as DER (slot 7, CSMAGIC_EMBEDDED_DER_ENTITLEMENTS).
    public let entitlementsDER: Entitlements?
    /// The certificates of the CMS signature (slot 0x10000, a blob wrapper); empty for an ad hoc signature.
    public let certificates: [CertificateSummary]

    /// The entitlements the app claims: the DER form when present, which iOS 15 and later require and read
    /// (Apple, "Using the latest code signature format"), else the XML form.
    public var entitlements: Entitlements? { entitlementsDER ?? entitlementsXML }

    /// Whether the XML and DER forms both exist and say different things.
    public var entitlementFormsDisagree: Bool {
        guard let xml = entitlementsXML, let der = entitlementsDER else { return false }
        return xml != der
    }

    /// Reads the SuperBlob in `bytes`, read at `base` in `file`.
    init(bytes: [UInt8], file: String, base: Int) throws(ArtifactError) {
        let reader = ByteReader(bytes, base: base, file: file, structure: Self.structure, bigEndian: true)
        let length = try Self.blobLength(reader, at: 0, available: bytes.count)
        let magic = try reader.uint32(at: 0)
        if magic == CodeDirectory.magic {
            // xnu also accepts a bare CodeDirectory in place of a SuperBlob.
            let directory = try CodeDirectory(reader, at: 0, length: length)
            self.init(codeDirectories: [directory], best: directory, xml: nil, der: nil, certificates: [])
            return
        }
        guard magic == 0xFADE_0CC0 else {
            throw reader.error("magic 0x\(String(magic, radix: 16)) is neither an embedded signature (0xfade0cc0) nor a CodeDirectory", at: 0)
        }
        var blobs = SuperBlobContents()
        try blobs.read(reader, length: length)
        guard let best = blobs.best else { throw reader.error("the signature has no CodeDirectory", at: 0) }
        self.init(
            codeDirectories: blobs.codeDirectories,
            best: best,
            xml: try blobs.entitlementsXML.map { range throws(ArtifactError) in
                Entitlements(
                    try PropertyListReader.readDictionary(Array(bytes[range]), file: file, base: base + range.lowerBound, what: "the entitlements")
                )
            },
            der: try blobs.entitlementsDER.map { range throws(ArtifactError) in
                Entitlements(try DEREntitlements.read(Array(bytes[range]), file: file, base: base + range.lowerBound))
            },
            certificates: try blobs.cms.map { range throws(ArtifactError) in
                try CMSSignedData(bytes: Array(bytes[range]), file: file, base: base + range.lowerBound).certificates.map {
                    CertificateSummary($0.certificate, der: $0.der)
                }
            } ?? []
        )
    }

    private init(codeDirectories: [CodeDirectory], best: CodeDirectory, xml: Entitlements?, der: Entitlements?, certificates: [CertificateSummary]) {
        self.codeDirectories = codeDirectories
        self.codeDirectory = best
        self.entitlementsXML = xml
        self.entitlementsDER = der
        self.certificates = certificates
    }

    /// A generic blob's length at `offset`, checked as xnu's `cs_validate_blob`: at least its 8-byte header and
    /// no more than the `available` bytes.
    static func blobLength(_ reader: ByteReader, at offset: Int, available: Int) throws(ArtifactError) -> Int {
        guard available >= 8 else { throw reader.error("\(available) bytes left, too few for a blob header", at: offset) }
        let length = try reader.size32(at: offset + 4)
        guard length >= 8, length <= available else {
            throw reader.error("a blob's length \(length) is not between 8 and the \(available) bytes left", at: offset + 4)
        }
        return length
    }
}

/// The blobs a SuperBlob's index points at, sorted by slot.
private struct SuperBlobContents {
    var codeDirectories: [CodeDirectory] = []
    var best: CodeDirectory?
    /// The payloads (after each blob's 8-byte header) of the entitlements and CMS blobs.
    var entitlementsXML: Range<Int>?
    var entitlementsDER: Range<Int>?
    var cms: Range<Int>?

    mutating func read(_ reader: ByteReader, length: Int) throws(ArtifactError) {
        guard length >= 12 else { throw reader.error("a SuperBlob of \(length) bytes has no room for its count", at: 0) }
        let count = try reader.size32(at: 8)
        guard count <= (length - 12) / 8 else {
            throw reader.error("\(count) index entries do not fit in a SuperBlob of \(length) bytes", at: 8)
        }
        for index in 0..<count {
            let entry = 12 + index * 8
            let slot = try reader.uint32(at: entry)
            let offset = try reader.size32(at: entry + 4)
            guard offset <= length else {
                throw reader.error(
                    "index entry \(index) (slot 0x\(String(slot, radix: 16))) points at \(offset), past the SuperBlob's \(length) bytes",
                    at: entry + 4
                )
            }
            let blobLength = try CodeSignature.blobLength(reader, at: offset, available: length - offset)
            try take(slot: slot, offset: offset, length: blobLength, reader)
        }
    }

    private mutating func take(slot: UInt32, offset: Int, length: Int, _ reader: ByteReader) throws(ArtifactError) {
        let magic = try reader.uint32(at: offset)
        let payload = (offset + 8)..<(offset + length)
        switch slot {
        case 0, 0x1000..<0x1005:
            let directory = try CodeDirectory(reader, at: offset, length: length)
            if let best, best.hashRank == directory.hashRank {
                throw reader.error("two CodeDirectories of hash type \(directory.hashType)", at: offset)
            }
            if directory.hashRank > best?.hashRank ?? 0 { best = directory }
            codeDirectories.append(directory)
        case 5:
            try Self.unique(&entitlementsXML, payload, magic: magic, expected: 0xFADE_7171, "entitlements", reader, at: offset)
        case 7:
            try Self.unique(&entitlementsDER, payload, magic: magic, expected: 0xFADE_7172, "DER entitlements", reader, at: offset)
        case 0x10000:
            guard magic == 0xFADE_0B01 else { throw reader.error("the CMS slot does not hold a blob wrapper (0xfade0b01)", at: offset) }
            cms = payload.isEmpty ? nil : payload
        default:
            break
        }
    }

    private static func unique(
        _ field: inout Range<Int>?,
        _ payload: Range<Int>,
        magic: UInt32,
        expected: UInt32,
        _ what: String,
        _ reader: ByteReader,
        at offset: Int
    ) throws(ArtifactError) {
        guard magic == expected else {
            throw reader.error("the \(what) slot holds magic 0x\(String(magic, radix: 16)), not 0x\(String(expected, radix: 16))", at: offset)
        }
        guard field == nil else { throw reader.error("a second \(what) blob", at: offset) }
        field = payload
    }
}
