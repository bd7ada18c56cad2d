import AppFlipCore
import Testing

/// The family generators, as properties: every mutation differs from the exact value byte for byte (the
/// comparison a partner must make), no two are the same, each family of the value's grammar is there, and
/// no redirect URI mutation is one of the 12 or passes the App Flip allowlist.
@Suite struct MutationFamilyTests {
    /// Values a partner compares: client ids as partners write them, random tokens, non-ASCII text.
    static let identifiers: [String] =
        [
            "appflip-demo-client", "partner-test-client", "123456789012-abc.apps.example.com", "CLIENT_ID", "k", "\u{E9}t\u{E9}",
        ] + (0..<200).map { _ in Self.randomToken() }

    static func randomToken() -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.~")
        return String((0..<Int.random(in: 1...64)).map { _ in alphabet.randomElement()! })
    }

    static func differAndAreDistinct(_ mutations: [Mutation], from exact: [String]) {
        var seen: Set<[UInt8]> = Set(exact.map { Array($0.utf8) })
        for mutation in mutations {
            guard let value = mutation.value else { continue }
            #expect(!exact.contains { $0.utf8.elementsEqual(value.utf8) }, "\(mutation) is an exact value")
            #expect(seen.insert(Array(value.utf8)).inserted, "\(mutation) twice")
        }
    }

    @Test func everyIdentifierMutationDiffersFromTheValue() {
        for value in Self.identifiers {
            let mutations = IdentifierMutations.all(of: value)
            Self.differAndAreDistinct(mutations, from: [value])
            let families = Set(mutations.map(\.family))
            #expect(families.isSuperset(of: [.suffix, .trailing, .truncation]), "\(value): \(families)")
            if value.count > 1 { #expect(families.contains(.prefix)) }
            if value.contains(where: \.isCased) { #expect(families.contains(.letterCase), "\(value)") }
            if value.contains(where: { $0.isLetter && $0.isASCII }) {
                #expect(families.isSuperset(of: [.unicode, .percentEncoding, .doublePercentEncoding]), "\(value)")
            }
        }
    }

    @Test func theUnicodeMutationsAreEachNormalisationForm() {
        let mutations = IdentifierMutations.all(of: "partner-client", families: [.unicode]).compactMap(\.value)
        // NFKC and NFKD give a fullwidth letter back; NFD is a combining accent; NFC a precomposed one.
        #expect(mutations.contains("\u{FF50}artner-client"))
        #expect(mutations.contains("pa\u{301}rtner-client"))
        #expect(mutations.contains("p\u{E1}rtner-client"))
        #expect(mutations.contains("partner-cl\u{131}ent"))
        #expect(mutations.contains("\u{440}artner-client"))
        // A value already non-ASCII gets its other form: the same text to Swift's ==, other bytes.
        let decomposed = IdentifierMutations.all(of: "caf\u{E9}", families: [.unicode]).compactMap(\.value)
        #expect(decomposed.contains { $0 == "caf\u{E9}" && !$0.utf8.elementsEqual("caf\u{E9}".utf8) })
    }

    @Test(arguments: [DottedNameMutations.Order.host, .package]) func everyDottedNameMutationDiffersFromTheName(order: DottedNameMutations.Order) {
        let names =
            order == .host
            ? ["oauth-redirect.googleusercontent.com", "partner.example", "a.b.c.d.example"]
            : ["com.google.android.googlequicksearchbox", "com.partner.app", "a.b"]
        for name in names {
            let mutations = DottedNameMutations.all(of: name, order: order)
            Self.differAndAreDistinct(mutations, from: [name])
            #expect(mutations.contains { $0.family == .sibling })
        }
        if order == .host {
            let values = DottedNameMutations.all(of: "oauth-redirect.googleusercontent.com", order: .host).compactMap(\.value)
            #expect(values.contains("evil.googleusercontent.com"))
            #expect(values.contains("oauth-redirect.googleusercontent.com.evil.test"))
            #expect(values.contains("evil-oauth-redirect.googleusercontent.com"))
        } else {
            let values = DottedNameMutations.all(of: "com.google.android.googlequicksearchbox", order: .package).compactMap(\.value)
            #expect(values.contains("com.google.android.evil"))
            #expect(values.contains("com.google.android.googlequicksearchboxevil"))
        }
    }

    @Test(arguments: AppFlipRedirectURI.all) func noRedirectURIMutationIsOneOfTheTwelve(redirect: AppFlipRedirectURI) throws {
        let twelve = AppFlipRedirectURI.all.map(\.string)
        let mutations = URIMutations.all(of: redirect.string, exact: twelve)
        Self.differAndAreDistinct(mutations, from: twelve)
        // Every family of a URI's grammar is probed.
        let families = Set(mutations.map(\.family))
        #expect(families == Set(MutationFamily.allCases).subtracting([.length]), "\(families)")
        for component in ["scheme", "host", "path"] {
            #expect(mutations.contains { $0.family == .letterCase && $0.label.contains(component) }, "\(component)")
        }
        // The App Flip allowlist, an exact comparison, refuses every one of them.
        for mutation in mutations {
            if case .success = RedirectAllowlist.appFlip.check(mutation.value ?? "") { Issue.record("the allowlist takes \(mutation)") }
        }
        let values = mutations.compactMap(\.value)
        let host = try RawURL(redirect.string).host
        let parent = host.split(separator: ".").dropFirst().joined(separator: ".")
        #expect(values.contains(redirect.string.replacing(host, with: "evil." + parent)))
        #expect(values.contains(redirect.string + "/"))
        #expect(values.contains { $0.contains("%252E") })
    }

    @Test func everyStateDiffersFromTheBaseAndFromEveryOther() {
        let base = "appflip-audit-state"
        let states = StateMutations.all(of: base)
        Self.differAndAreDistinct(states, from: [base])
        for limit in StateMutations.lengthLimits {
            #expect(states.contains { $0.value?.utf8.count == limit && $0.family == .length })
            #expect(states.contains { $0.value?.utf8.count == limit + 1 && $0.family == .length })
        }
        // The NFC and NFD states are the same text to Swift's ==: only an exact comparison tells them apart.
        let unicode = states.filter { $0.family == .unicode }.compactMap(\.value)
        #expect(unicode.contains { nfc in unicode.contains { $0 == nfc && !$0.utf8.elementsEqual(nfc.utf8) } })
    }

    @Test func aPollutedRequestCarriesTheParameterTwiceInEitherOrder() {
        let fields: RequestMutations.Fields = [("client_id", "c"), ("redirect_uri", "https://r"), ("state", "s")]
        let polluted = RequestMutations.polluted(fields, name: "redirect_uri", wrong: "https://evil", wrongLabel: "a foreign one")
        #expect(
            polluted.map { $0.tuples.filter { $0.name == "redirect_uri" }.map(\.value) } == [
                ["https://r", "https://evil"], ["https://evil", "https://r"],
            ]
        )
        let equivalent = RequestMutations.equivalent(to: fields)
        #expect(equivalent[0].tuples.map(\.name) == ["state", "redirect_uri", "client_id"])
        #expect(equivalent[1].tuples.dropLast().map(\.name) == fields.map(\.name))
    }
}
