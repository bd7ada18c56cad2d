import AppFlipCore
import FuzzSupport

/// `FlipLink` both ways. The input is split at NUL bytes into a partner link, a client ID, a scope, a state and
/// a redirect URI. The link `FlipLink.link` builds from them must parse as a URL, and reading it back must give
/// the same four values whenever the partner link's own query does not already carry one of them. Any URL
/// read as a flip link must not trap.
@_cdecl("LLVMFuzzerTestOneInput")
public func LLVMFuzzerTestOneInput(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let parts = fuzzBytes(start, count).split(separator: 0, omittingEmptySubsequences: false)
        .map { String(decoding: $0, as: UTF8.self) }
    guard parts.count >= 5 else {
        if let url = try? RawURL(parts.first ?? "") { _ = FlipLink(url) }
        return 0
    }
    guard let partner = try? RawURL(parts[0]) else { return 0 }
    let given = FlipLink(partner)
    _ = given.scopes
    for parameter in FlipLink.Parameter.allCases { _ = given.problems(of: parameter) }

    let (clientID, scope, state, redirectURI) = (parts[1], parts[2], parts[3], parts[4])
    let text = FlipLink.link(to: partner, clientID: clientID, scopes: [scope], state: state, redirectURI: redirectURI)
    guard let url = try? RawURL(text) else {
        fuzzCheck(false, "FlipLink.link wrote \(text), which is not a URL")
        return 0
    }
    let link = FlipLink(url)
    let partnerHasParameter = FlipLink.Parameter.allCases.contains { given.problems(of: $0).allSatisfy { $0.kind != .missing } }
    guard !partnerHasParameter else { return 0 }
    fuzzCheck(link.clientID == clientID, "client_id \(String(describing: link.clientID)) is not \(clientID)")
    fuzzCheck(link.values[.scope] == scope, "scope \(String(describing: link.values[.scope])) is not \(scope)")
    fuzzCheck(link.state == state, "state \(String(describing: link.state)) is not \(state)")
    fuzzCheck(link.redirectURI == redirectURI, "redirect_uri \(String(describing: link.redirectURI)) is not \(redirectURI)")
    return 0
}

runFuzzer(LLVMFuzzerTestOneInput)
