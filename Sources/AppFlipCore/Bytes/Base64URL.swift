/// Unpadded base64url (RFC 4648 §5): the alphabet of PKCE challenges, of the OAuth server's opaque tokens
/// and of `appflip flip`'s fresh states. Nothing in the project decodes it: those values are compared as
/// written.
package enum Base64URL {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    package static func encode(_ bytes: some Sequence<UInt8>) -> String {
        var output: [UInt8] = []
        output.reserveCapacity((bytes.underestimatedCount * 4 + 2) / 3)
        var iterator = bytes.makeIterator()
        while let first = iterator.next() {
            let second = iterator.next()
            let third = second == nil ? nil : iterator.next()
            let chunk = UInt32(first) << 16 | UInt32(second ?? 0) << 8 | UInt32(third ?? 0)
            output.append(alphabet[Int(chunk >> 18 & 0x3F)])
            output.append(alphabet[Int(chunk >> 12 & 0x3F)])
            if second != nil { output.append(alphabet[Int(chunk >> 6 & 0x3F)]) }
            if third != nil { output.append(alphabet[Int(chunk & 0x3F)]) }
        }
        return String(decoding: output, as: UTF8.self)
    }
}
