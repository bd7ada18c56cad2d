/// The proof-of-rotation lineage of a v3 or v3.1 signer (apksig `V3SigningCertificateLineage
/// .readSigningCertificateLineage`): a version (1), then length-prefixed nodes, oldest first, each with its
/// signed data (the certificate and the algorithm its predecessor signed it with), its capability flags, the
/// algorithm it signs its successor with, and its predecessor's signature. The signatures are not verified
/// here (`apksigner verify` does); a certificate listed twice is refused, as apksig refuses it.
enum ProofOfRotation {
    static func read(_ reader: ByteReader) throws -> [LineageNode] {
        let version = try reader.uint32(at: 0)
        guard version == 1 else { throw reader.error("lineage version \(version); only version 1 exists", at: 0) }
        let nodes = try SchemeBlockReader.sequence(try reader.reader(at: 4, count: reader.count - 4, "the lineage nodes"), "a lineage node")
        var lineage: [LineageNode] = []
        for (index, node) in nodes.enumerated() {
            var offset = 0
            let signedData = try SchemeBlockReader.lengthPrefixed(node, &offset, "lineage node #\(index + 1)'s signed data")
            let flags = try node.uint32(at: offset)
            var at = 0
            let der = try SchemeBlockReader.lengthPrefixed(signedData, &at, "lineage node #\(index + 1)'s certificate")
            let certificate = try SigningCertificate(
                der: Array(try der.bytes(at: 0, count: der.count, "")),
                structure: reader.structure,
                file: reader.file,
                offset: der.base
            )
            if lineage.contains(where: { $0.certificate == certificate }) {
                throw node.error("certificate #\(index + 1) (\(certificate.sha256)) appears twice in the lineage (apksig refuses it)", at: 0)
            }
            lineage.append(LineageNode(certificate: certificate, flags: flags))
        }
        guard !lineage.isEmpty else { throw reader.error("a lineage with no certificate", at: 4) }
        return lineage
    }
}
