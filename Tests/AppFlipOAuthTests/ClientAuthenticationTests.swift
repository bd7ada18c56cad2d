import AppFlipCore
import AsyncHTTPClient
import FoundationEssentials
import NIOCore
import Testing

@testable import AppFlipOAuth

/// HTTP Basic parsing, without HTTP.
@Suite struct ClientAuthenticationTests {
    static func basic(_ raw: String) -> String { "Basic " + Data(raw.utf8).base64EncodedString() }

    @Test("Basic credentials are form-decoded on each side of the first colon")
    func basicDecoding() throws {
        let parsed = try ClientAuthentication.from(authorization: Self.basic("a%26b%3Ac:s%3As+t:u"), form: FormParameters())
        #expect(parsed == ClientAuthentication(clientID: "a&b:c", secret: "s:s t:u", method: .basic))
    }

    @Test(
        "malformed Basic headers are invalid_client",
        arguments: ["Basic", "Basic !!!", "Bearer x", basic("no-colon"), basic(":secret"), basic("a%zz:b")]
    )
    func malformedBasic(header: String) {
        #expect(throws: TokenEndpointError.self) {
            try ClientAuthentication.from(authorization: header, form: FormParameters())
        }
        do {
            _ = try ClientAuthentication.from(authorization: header, form: FormParameters())
        } catch {
            #expect(error.code == .invalidClient)
        }
    }
}
