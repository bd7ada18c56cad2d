/// Counts the elements of BER or DER (X.690 §8.1: identifier, length, contents) without building them, before
/// swift-asn1 parses: its parser makes a node of about a hundred bytes for every element, so a megabyte of
/// two-byte elements would cost far more than the file. Only headers are read; a malformed one ends the count,
/// and swift-asn1 then refuses the bytes with its own error.
enum ASN1ElementCount {
    /// The most elements read: a CMS SignedData (a provisioning profile's, whose content is one OCTET STRING or
    /// a few pieces; a code signature's; an APK's v1 signature block) has a few hundred for each certificate it
    /// carries, and DER entitlements a few dozen.
    static let maximum = 16_384

    static func check(_ bytes: [UInt8], structure: String, file: String, base: Int) throws(ArtifactError) {
        var offset = 0
        var count = 0
        while offset < bytes.count {
            let start = offset
            if bytes[offset] == 0, offset + 1 < bytes.count, bytes[offset + 1] == 0 {
                offset += 2  // end-of-contents of an indefinite length
                continue
            }
            let constructed = bytes[offset] & 0x20 != 0
            if bytes[offset] & 0x1F == 0x1F {
                offset += 1
                while offset < bytes.count, bytes[offset] & 0x80 != 0 { offset += 1 }
            }
            offset += 1
            guard offset < bytes.count else { return }
            let first = Int(bytes[offset])
            offset += 1
            var length = first
            if first > 0x80 {
                guard first - 0x80 <= 4, offset + first - 0x80 <= bytes.count else { return }
                length = bytes[offset..<(offset + first - 0x80)].reduce(0) { $0 << 8 | Int($1) }
                offset += first - 0x80
            }
            count += 1
            guard count <= maximum else {
                throw ArtifactError(structure, file: file, offset: base + start, "more than \(maximum) ASN.1 elements")
            }
            // A constructed element's contents are elements, read next; a primitive's are skipped.
            if !constructed, first != 0x80 { offset += length }
        }
    }
}
