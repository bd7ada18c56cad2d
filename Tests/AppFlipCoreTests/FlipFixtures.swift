import Foundation
import Testing

@testable import AppFlipCore

/// Shared inputs for the App Flip tests.
enum FlipFixtures {
    static let clientID = "partner-client-123"
    static let assistant = AppFlipRedirectURI(app: .assistant, variant: .production, environment: .production)

    static func policy() throws -> FlipPolicy {
        try FlipPolicy(expectedClientIDs: [clientID])
    }

    /// A partner universal link with `query` written verbatim.
    static func link(_ query: String) throws -> RawURL {
        try RawURL("https://partner.example/flip?" + query)
    }

    /// A well-formed query, each parameter replaceable; `nil` leaves a parameter out. Values are written as
    /// given, so callers control the encoding.
    static func query(
        clientID: String? = clientID,
        scope: String? = "read+write",
        state: String? = "nonce-1",
        redirectURI: String? = assistant.string
    ) -> String {
        [("client_id", clientID), ("scope", scope), ("state", state), ("redirect_uri", redirectURI)]
            .compactMap { name, value in value.map { "\(name)=\($0)" } }
            .joined(separator: "&")
    }

    /// Test-only: the allowlist's own verdict for one of the 12.
    static func allowed(_ uri: AppFlipRedirectURI) -> AllowedRedirectURI {
        AllowedRedirectURI(string: uri.string, appFlip: uri)
    }

    /// The 12, as bytes: the only strings that may ever be accepted.
    static let listedBytes: Set<[UInt8]> = Set(AppFlipRedirectURI.all.map { Array($0.string.utf8) })

    static func isListed(_ candidate: String) -> Bool { listedBytes.contains(Array(candidate.utf8)) }

    /// The bytes Foundation's `URLComponents.queryItems` gives back for a value that was `value`, strictly
    /// encoded. Foundation's percent-decoding (`removingPercentEncoding`) drops one leading U+FEFF
    /// (byte order mark); every other byte comes back. `FlipResultTests` pins that quirk.
    static func foundationDecoding(of value: String) -> [UInt8] {
        let bytes = Array(value.utf8)
        return bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(bytes.dropFirst(3)) : bytes
    }

    /// The three open-redirect corpus files (PayloadsAllTheThings, MIT; see Corpora/open-redirect/SOURCE.md).
    static let corpusFiles = ["Open-Redirect-payloads.txt", "open_redirect_wordlist.txt", "openredirects.txt"]

    static func corpusLines(_ file: String) throws -> [String] {
        let url = try #require(Bundle.module.resourceURL)
            .appendingPathComponent("Corpora/open-redirect")
            .appendingPathComponent(file)
        let text = try String(contentsOf: url, encoding: .utf8)
        return text.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
    }
}
