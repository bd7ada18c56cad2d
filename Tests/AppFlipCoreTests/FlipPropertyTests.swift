import Foundation
import PropertyBased
import Testing

@testable import AppFlipCore

@Suite struct FlipPropertyTests {
    /// Characters where encoders go wrong: delimiters, `%`, `+`, controls, and lookalikes.
    static let tricky: [Character] =
        Array("+&=#%/?;:@ \"'\\<>[]{}|^`!$()*,~-._\t\n\r\u{0}\u{7F}") + [
            "\u{A0}", "\u{FF0E}", "\u{3002}", "\u{0430}", "\u{212A}", "\u{200B}", "\u{FEFF}", "\u{2028}", "e\u{301}", "🙂",
        ]

    /// Any Unicode scalar (surrogates excluded, as Swift strings cannot hold them), biased toward ASCII and
    /// the tricky characters.
    static let anyCharacter = Gen<Character>.frequency(
        (weight: 4, gen: Gen<Character>.ascii),
        (weight: 2, gen: Gen<Character?>.element(of: tricky).map { $0! }),
        (weight: 2, gen: Gen<UInt32>.value(in: 0x80...0x10FFFF).compactMap { UnicodeScalar($0).map(Character.init) })
    )

    static let anyString = anyCharacter.string(of: 0...40)

    @Test func strictEncodingRoundTripsArbitraryUnicode() async {
        let redirect = FlipFixtures.allowed(FlipFixtures.assistant)
        await propertyCheck(count: 1000, input: Self.anyString) { state in
            let encoded = PercentEncoding.encodeStrictly(state)
            #expect(Self.isStrictlyEncoded(encoded), "\(encoded)")
            #expect(PercentEncoding.formDecode(encoded).map { Array($0.utf8) } == Array(state.utf8))

            let url = FlipResult.code("c", state: state).url(appendingTo: redirect)
            let foundation = URLComponents(string: url)?.queryItems?.first { $0.name == "state" }?.value
            #expect(
                foundation.map { Array($0.utf8) } == FlipFixtures.foundationDecoding(of: state),
                "Foundation decoded \(String(reflecting: foundation))"
            )
            #expect(FlipResultChecker(redirectURI: redirect.string, state: state).check(url).isValid)

            // And through a whole flip: link → policy → result → checker.
            let link = FlipLink.link(
                to: try RawURL("https://partner.example/flip"),
                clientID: FlipFixtures.clientID,
                scopes: ["s"],
                state: state,
                redirectURI: redirect.string
            )
            let decision = try FlipFixtures.policy().decide(try RawURL(link))
            if state.isEmpty {
                #expect(decision.invalidRequestResultURL != nil)
            } else if case .proceed(let request) = decision {
                #expect(Array(request.state.utf8) == Array(state.utf8))
            } else {
                Issue.record("unexpected \(decision)")
            }
        }
    }

    /// Only unreserved characters and `%XX` with upper-case hex digits.
    static func isStrictlyEncoded(_ encoded: String) -> Bool {
        var bytes = encoded.utf8.makeIterator()
        while let byte = bytes.next() {
            if PercentEncoding.isUnreserved(byte) { continue }
            guard byte == UInt8(ascii: "%"), let high = bytes.next(), let low = bytes.next() else { return false }
            let upperHex = Array("0123456789ABCDEF".utf8)
            guard upperHex.contains(high), upperHex.contains(low) else { return false }
        }
        return true
    }

    /// One of the 12 after one to three random edits: case flips, insertions, deletions, replacements,
    /// percent-encodings, ports, userinfo, prefixes and suffixes. Some edits land on another of the 12
    /// (e.g. removing `.dev`), which must then be accepted: the rule is "accepted exactly when listed".
    static let mutatedRedirectURI = Generator<String, Shrink.None<String>> { rng in
        var uri = Array(AppFlipRedirectURI.all.randomElement(using: &rng)!.string)
        let pieces: [String] =
            tricky.map(String.init) + [
                "%2E", "%2e", "%2F", "%00", "%41", "..", "/..", "/.", ".dev", ".enterprise", "-sandbox", "xn--", "A", "a", "0",
                "evil.test", "@evil.test", "evil.test@", ":443", ":", "?", "#", "//", "\\", "https://", "http", "OPA", "Chromecast",
            ]
        for _ in 0..<Int.random(in: 1...3, using: &rng) {
            let position = Int.random(in: 0...uri.count, using: &rng)
            switch Int.random(in: 0..<9, using: &rng) {
            case 0:  // flip the case of one ASCII letter
                let letters = uri.indices.filter { uri[$0].isASCII && uri[$0].isLetter }
                if let index = letters.randomElement(using: &rng) {
                    let letter = uri[index]
                    uri[index] = letter.isUppercase ? Character(letter.lowercased()) : Character(letter.uppercased())
                }
            case 1: uri.insert(contentsOf: pieces.randomElement(using: &rng)!, at: position)
            case 2: if !uri.isEmpty { uri.remove(at: min(position, uri.count - 1)) }
            case 3:
                if !uri.isEmpty {
                    uri.replaceSubrange(min(position, uri.count - 1)...min(position, uri.count - 1), with: pieces.randomElement(using: &rng)!)
                }
            case 4:  // percent-encode one character
                if !uri.isEmpty {
                    let index = min(position, uri.count - 1)
                    let encoded = String(uri[index]).utf8.map { "%" + String($0, radix: 16, uppercase: Bool.random(using: &rng)).leftPadded(to: 2) }
                        .joined()
                    uri.replaceSubrange(index...index, with: encoded)
                }
            case 5:  // a port after the host
                let hostEnd = uri.indices.filter { uri[$0] == "/" }.dropFirst(2).first ?? uri.endIndex
                uri.insert(contentsOf: [":443", ":", ":80", ":0443", ":00443"].randomElement(using: &rng)!, at: hostEnd)
            case 6:  // userinfo before the host
                uri.insert(
                    contentsOf: ["user@", "@", "evil.test@", "oauth-redirect.googleusercontent.com@"].randomElement(using: &rng)!,
                    at: min(8, uri.count)
                )
            case 7: uri.append(contentsOf: pieces.randomElement(using: &rng)!)
            default: uri.insert(contentsOf: pieces.randomElement(using: &rng)!, at: 0)
            }
        }
        return String(uri)
    }

    @Test func noLookalikeRedirectURIIsEverAccepted() async throws {
        let policy = try FlipFixtures.policy()
        var refusedCount = 0
        await propertyCheck(count: 3000, input: Self.mutatedRedirectURI) { candidate in
            let listed = FlipFixtures.isListed(candidate)
            switch RedirectAllowlist.appFlip.check(candidate) {
            case .success(let allowed):
                #expect(listed, "accepted \(String(reflecting: candidate))")
                #expect(allowed.string.isIdentical(to: candidate))
            case .failure:
                #expect(!listed, "refused the listed \(candidate)")
                refusedCount += 1
            }
            // Inside a flip link, a lookalike is declined: no redirect at all.
            let link = try FlipFixtures.link(FlipFixtures.query(redirectURI: PercentEncoding.encodeStrictly(candidate)))
            switch policy.decide(link) {
            case .proceed, .invalidRequest: #expect(listed, "redirects to \(String(reflecting: candidate))")
            case .decline: #expect(!listed)
            }
        }
        // The generator must mostly produce lookalikes, or the property proves little.
        #expect(refusedCount > 2700, "only \(refusedCount) of 3000 mutations were lookalikes")
    }
}
