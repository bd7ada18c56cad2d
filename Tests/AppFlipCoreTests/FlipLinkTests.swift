import Testing

@testable import AppFlipCore

@Suite struct FlipLinkTests {
    @Test func readsTheFourParameters() throws {
        let link = FlipLink(try FlipFixtures.link(FlipFixtures.query()))
        #expect(link.problems.isEmpty)
        #expect(link.clientID == FlipFixtures.clientID)
        #expect(link.state == "nonce-1")
        #expect(link.redirectURI == FlipFixtures.assistant.string)
        #expect(link.scopes == ["read", "write"])
    }

    @Test(arguments: ["read+write", "read%20write", "read%20write", "read+%77rite"])
    func acceptsPlusAndPercentTwentyBetweenScopes(scope: String) throws {
        let link = FlipLink(try FlipFixtures.link(FlipFixtures.query(scope: scope)))
        #expect(link.problems.isEmpty)
        #expect(link.scopes == ["read", "write"])
    }

    @Test func anEncodedPlusIsPartOfAScope() throws {
        let link = FlipLink(try FlipFixtures.link(FlipFixtures.query(scope: "a%2Bb+c")))
        #expect(link.scopes == ["a+b", "c"])
    }

    @Test func decodesEncodedNamesAndValues() throws {
        let encodedRedirect = PercentEncoding.encodeStrictly(FlipFixtures.assistant.string)
        let link = FlipLink(try FlipFixtures.link("client%5Fid=abc&scope=s&state=%E2%9C%93&redirect_uri=\(encodedRedirect)"))
        #expect(link.problems.isEmpty)
        #expect(link.clientID == "abc")
        #expect(link.state == "✓")
        #expect(link.redirectURI == FlipFixtures.assistant.string)
    }

    @Test func reportsEveryMissingParameterInCheckOrder() throws {
        let link = FlipLink(try RawURL("https://partner.example/flip"))
        #expect(link.problems == FlipLink.Parameter.allCases.map { FlipLinkProblem($0, .missing) })
        #expect(link.problems.map(\.parameter) == [.redirectURI, .clientID, .state, .scope])
    }

    @Test func reportsEmptyWithAndWithoutEquals() throws {
        let link = FlipLink(try FlipFixtures.link("client_id=&scope&state=&redirect_uri"))
        #expect(link.problems == FlipLink.Parameter.allCases.map { FlipLinkProblem($0, .empty) })
        #expect(link.state == "")
    }

    @Test func reportsDuplicatesWithTheirCountAndKeepsNoValue() throws {
        let query = FlipFixtures.query() + "&state=other&state=third&client_id=\(FlipFixtures.clientID)"
        let link = FlipLink(try FlipFixtures.link(query))
        #expect(link.problems == [FlipLinkProblem(.clientID, .duplicated(count: 2)), FlipLinkProblem(.state, .duplicated(count: 3))])
        #expect(link.state == nil && link.clientID == nil)
    }

    @Test func identicalDuplicatesAreStillDuplicates() throws {
        let query = FlipFixtures.query() + "&redirect_uri=" + FlipFixtures.assistant.string
        let link = FlipLink(try FlipFixtures.link(query))
        #expect(link.problems == [FlipLinkProblem(.redirectURI, .duplicated(count: 2))])
    }

    @Test(arguments: ["%FF", "%C3", "%C0%AF", "%ED%A0%80"])
    func reportsValuesThatAreNotUTF8(value: String) throws {
        let link = FlipLink(try FlipFixtures.link(FlipFixtures.query(state: value)))
        #expect(link.problems == [FlipLinkProblem(.state, .notUTF8)])
        #expect(link.state == nil)
    }

    @Test(arguments: ["+read", "read+", "read++write", "%20"])
    func reportsEmptyScopeTokens(scope: String) throws {
        let link = FlipLink(try FlipFixtures.link(FlipFixtures.query(scope: scope)))
        #expect(link.problems == [FlipLinkProblem(.scope, .emptyScopeToken)])
    }

    @Test(arguments: ["a%22b", "a%5Cb", "caf%C3%A9", "a%09b", "a%7Fb"])
    func reportsScopeCharactersOutsideNQCHAR(scope: String) throws {
        let link = FlipLink(try FlipFixtures.link(FlipFixtures.query(scope: scope)))
        #expect(link.problems == [FlipLinkProblem(.scope, .invalidScopeCharacter)])
    }

    @Test func ignoresUnknownParametersAndEmptySegments() throws {
        let link = FlipLink(try FlipFixtures.link("&&x=1&" + FlipFixtures.query() + "&x=2&%FF=3&"))
        #expect(link.problems.isEmpty)
    }

    @Test func buildsALinkThatParsesBackExactly() throws {
        let state = "a+b&c=d#e%zz f\"'🙂"
        let string = FlipLink.link(
            to: try RawURL("https://partner.example/flip?ref=1#top"),
            clientID: "id&=+",
            scopes: ["email", "profile"],
            state: state,
            redirectURI: FlipFixtures.assistant.string
        )
        #expect(string.hasPrefix("https://partner.example/flip?ref=1&client_id=id%26%3D%2B&scope=email%20profile&state="))
        #expect(string.hasSuffix("#top"))
        let link = FlipLink(try RawURL(string))
        #expect(link.problems.isEmpty)
        #expect(link.state.map { Array($0.utf8) } == Array(state.utf8))
        #expect(link.clientID == "id&=+" && link.scopes == ["email", "profile"])
        #expect(link.redirectURI == FlipFixtures.assistant.string)
    }

    @Test func buildsOnALinkWithoutOrWithAnEmptyQuery() throws {
        for base in ["https://partner.example/flip", "https://partner.example/flip?"] {
            let string = FlipLink.link(to: try RawURL(base), clientID: "c", scopes: ["s"], state: "t", redirectURI: "r")
            #expect(string == "https://partner.example/flip?client_id=c&scope=s&state=t&redirect_uri=r")
        }
    }
}
