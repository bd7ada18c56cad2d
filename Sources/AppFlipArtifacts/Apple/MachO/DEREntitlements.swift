import SwiftASN1

/// The DER form of entitlements, which a code signature carries beside the XML one since iOS 15 (slot 7,
/// CSMAGIC_EMBEDDED_DER_ENTITLEMENTS): `[APPLICATION 16] { INTEGER 1, value }`, where a dictionary is a
/// `[CONTEXT 16]` of `SEQUENCE { UTF8String key, value }` in key order, an array a SEQUENCE, and strings,
/// booleans and integers their universal types. Apple documents no grammar; this is the one `codesign
/// --generate-entitlement-der` writes, as indygreg/apple-platform-rs (apple-codesign/src/entitlements.rs)
/// records it with test vectors taken from `codesign`. Read with swift-asn1, whose parser bounds the nesting.
enum DEREntitlements {
    /// The largest DER entitlements blob read; real ones are a few hundred bytes.
    static let maximumSize = 256 << 10

    private static let structure = "DER entitlements"
    private static let envelope = ASN1Identifier(tagWithNumber: 16, tagClass: .application)
    private static let dictionary = ASN1Identifier(tagWithNumber: 16, tagClass: .contextSpecific)

    /// The entitlements dictionary in `bytes`, read at `base` in `file`.
    static func read(_ bytes: [UInt8], file: String, base: Int) throws(ArtifactError) -> [String: PropertyListValue] {
        guard bytes.count <= maximumSize else {
            throw ArtifactError(structure, file: file, offset: base, "\(bytes.count) bytes, over the limit of \(maximumSize)")
        }
        try ASN1ElementCount.check(bytes, structure: structure, file: file, base: base)
        do {
            let root = try DER.parse(bytes)
            guard root.identifier == envelope, case .constructed(let nodes) = root.content else {
                throw Failure(node: root, message: "not an [APPLICATION 16] envelope")
            }
            let fields = Array(nodes)
            guard fields.count == 2, (try? Int(derEncoded: fields[0])) == 1 else {
                throw Failure(node: root, message: "the envelope is not version 1 and one value")
            }
            guard case .dictionary(let members) = try value(fields[1]) else {
                throw Failure(node: fields[1], message: "the entitlements are not a dictionary")
            }
            return members
        } catch let failure as Failure {
            throw ArtifactError(structure, file: file, offset: base + failure.node.encodedBytes.startIndex, failure.message)
        } catch {
            throw ArtifactError(structure, file: file, offset: base, "not DER: \(error)")
        }
    }

    private struct Failure: Error {
        let node: ASN1Node
        let message: String
    }

    private static func value(_ node: ASN1Node) throws -> PropertyListValue {
        switch node.identifier {
        case .boolean: return .bool(try Bool(derEncoded: node))
        case .integer: return .integer(try Int64(derEncoded: node))
        case .utf8String: return .string(String(try ASN1UTF8String(derEncoded: node)))
        case .sequence:
            guard case .constructed(let items) = node.content else { throw Failure(node: node, message: "an array is not constructed") }
            return .array(try items.map(value))
        case dictionary:
            guard case .constructed(let pairs) = node.content else { throw Failure(node: node, message: "a dictionary is not constructed") }
            var members: [String: PropertyListValue] = [:]
            for pair in pairs {
                guard pair.identifier == .sequence, case .constructed(let nodes) = pair.content, case let parts = Array(nodes),
                    parts.count == 2
                else { throw Failure(node: pair, message: "a dictionary entry is not a SEQUENCE of a key and a value") }
                guard parts[0].identifier == .utf8String else { throw Failure(node: parts[0], message: "a dictionary key is not a UTF8String") }
                members[String(try ASN1UTF8String(derEncoded: parts[0]))] = try value(parts[1])
            }
            return .dictionary(members)
        default:
            throw Failure(node: node, message: "\(node.identifier) is not a type entitlements use")
        }
    }
}
