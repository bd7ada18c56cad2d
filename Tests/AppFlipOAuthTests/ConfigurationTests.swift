import AppFlipConfiguration
import FoundationEssentials
import Glibc
import Testing

@testable import AppFlipOAuth

@Suite struct ConfigurationTests {
    /// `Config/oauth.json`, found from this file's path.
    static let shippedConfigPath: String = {
        var components = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        components.removeLast(3)
        return components.joined(separator: "/") + "/Config/oauth.json"
    }()

    @Test("the shipped Config/oauth.json loads and registers the 12 App Flip URIs")
    func shippedConfiguration() throws {
        let configuration = try OAuthServerConfiguration.load(from: Self.shippedConfigPath)
        #expect(configuration.port == OAuthServerConfiguration.defaultPort)
        #expect(configuration.host == "127.0.0.1")
        #expect(configuration.authorizationCodeLifetime == 60)
        let client = try #require(configuration.clients.first)
        #expect(Set(appFlipRedirectURIs).isSubset(of: client.redirectURIs))
        #expect(client.redirectURIs.contains("https://oauth-redirect.googleusercontent.com/r/appflip-demo"))
        #expect(!"\(client)".contains(client.secret))
        #expect(!"\(configuration)".contains(client.secret))
        #expect(!String(reflecting: configuration).contains(client.secret))
    }

    @Test("defaults apply to omitted keys")
    func defaults() throws {
        let json =
            #"{"clients":[{"clientID":"c","clientSecret":"0123456789abcdef","redirectURIs":["https://x/a"],"scopes":[]}],"users":[{"username":"u"}]}"#
        let configuration = try JSONDecoder().decode(OAuthServerConfiguration.self, from: Data(json.utf8))
        #expect(configuration.port == 8471)
        #expect(configuration.authorizationCodeLifetime == 60)
        #expect(configuration.accessTokenLifetime == 3600)
        #expect(configuration.users == [TestUser(username: "u")])
    }

    @Test("unsafe configurations are refused, naming the field")
    func validation() {
        let valid = testConfiguration()
        var broken: [(String, OAuthServerConfiguration)] = []
        var copy = valid
        copy.host = "0.0.0.0"
        broken.append(("host", copy))
        copy = valid
        copy.authorizationCodeLifetime = 601
        broken.append(("authorizationCodeLifetime", copy))
        copy = valid
        copy.clients.append(testClient)
        broken.append(("clients[\(copy.clients.count - 1)].clientID", copy))
        copy = valid
        copy.clients[0].secret = "short"
        broken.append(("clients[0].clientSecret", copy))
        copy = valid
        copy.clients[0].redirectURIs.append("https://x/a#fragment")
        broken.append(("clients[0].redirectURIs[\(copy.clients[0].redirectURIs.count - 1)]", copy))
        copy = valid
        copy.users.append(TestUser(username: "alice"))
        broken.append(("users[\(copy.users.count - 1)].username", copy))
        copy = valid
        copy.port = 70000
        broken.append(("port", copy))
        #expect((try? valid.validate()) != nil)
        for (field, configuration) in broken {
            do {
                try configuration.validate()
                Issue.record("\(field): expected a validation error")
            } catch {
                #expect(error.field == field, "\(error)")
            }
        }
    }

    /// `oauth.json` was snake_case before it joined the other configuration files; each old key is
    /// refused with the one to write instead.
    @Test(
        "a snake_case key is refused with its camelCase name",
        arguments: [
            ("authorization_code_lifetime", "authorizationCodeLifetime", "authorization_code_lifetime"),
            ("access_token_lifetime", "accessTokenLifetime", "access_token_lifetime"),
            ("clients[0].client_id", "clientID", "client_id"),
            ("clients[0].client_secret", "clientSecret", "client_secret"),
            ("clients[0].redirect_uris", "redirectURIs", "redirect_uris"),
        ]
    )
    func snakeCaseKeys(field: String, camelCase: String, snakeCase: String) throws {
        let client = #"{"clientID":"c","clientSecret":"0123456789abcdef","redirectURIs":["https://x/a"],"scopes":[]}"#
        let json = #"{"clients":[\#(client)],"users":[],"authorizationCodeLifetime":60,"accessTokenLifetime":60}"#
            .replacing("\"\(camelCase)\"", with: "\"\(snakeCase)\"")
        let file = try writeTemporaryFile(json)
        defer { unlink(file) }
        #expect(throws: ConfigurationError(file: file, field: field, "renamed; write `\(camelCase)` (configuration keys are camelCase)")) {
            try OAuthServerConfiguration.load(from: file)
        }
    }

    @Test("an unknown key is refused, naming the key and the known keys")
    func unknownKey() throws {
        let file = try writeTemporaryFile(#"{"clients":[],"users":[{"username":"u","admin":true}]}"#)
        defer { unlink(file) }
        #expect(throws: ConfigurationError(file: file, field: "users[0].admin", "unknown key; known keys are username, disabled")) {
            try OAuthServerConfiguration.load(from: file)
        }
    }

    @Test("a validation error names the file and the field")
    func validationErrorsNameTheFile() throws {
        let file = try writeTemporaryFile(#"{"port":70000,"clients":[],"users":[]}"#)
        defer { unlink(file) }
        #expect(throws: ConfigurationError(file: file, field: "port", "70000 is out of range")) {
            try OAuthServerConfiguration.load(from: file)
        }
    }

    @Test(
        "a number that is no integer is refused at its key",
        arguments: ["port", "authorizationCodeLifetime", "accessTokenLifetime", "refreshTokenGraceSeconds"]
    )
    func nonIntegers(key: String) throws {
        let file = try writeTemporaryFile(#"{"\#(key)":1.5,"clients":[],"users":[]}"#)
        defer { unlink(file) }
        #expect(throws: ConfigurationError(file: file, field: key, "must be an integer")) {
            try OAuthServerConfiguration.load(from: file)
        }
    }

    private func writeTemporaryFile(_ contents: String) throws -> String {
        var template = Array("/tmp/appflip-oauth-XXXXXX.json".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemps($0.baseAddress!, 5) }
        try #require(fd >= 0)
        defer { close(fd) }
        let bytes = Array(contents.utf8)
        try #require(write(fd, bytes, bytes.count) == bytes.count)
        return String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    @Test("a secret never appears in a configuration error")
    func secretsStayOutOfErrors() {
        var configuration = testConfiguration()
        configuration.clients[0].secret = "tiny"
        do {
            try configuration.validate()
            Issue.record("expected a validation error")
        } catch {
            #expect(!error.description.contains("tiny"))
        }
    }
}
