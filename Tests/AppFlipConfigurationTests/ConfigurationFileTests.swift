import AppFlipConfiguration
import Glibc
import Testing

/// One rule per test: what the loader refuses, and that every refusal names the file and the field.
@Suite struct ConfigurationFileTests {
    /// A small format with a nested array of objects, like `oauth.json`'s clients.
    struct Service: Decodable, Equatable {
        var listenBacklog: Int
        var redirectURIs: [String]
        var clients: [Client]

        private enum CodingKeys: String, CodingKey, CaseIterable {
            case listenBacklog, redirectURIs, clients
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.strictContainer(keyedBy: CodingKeys.self)
            listenBacklog = try container.decode(Int.self, forKey: .listenBacklog)
            redirectURIs = try container.decodeIfPresent([String].self, forKey: .redirectURIs) ?? []
            clients = try container.decodeIfPresent([Client].self, forKey: .clients) ?? []
        }
    }

    struct Client: Decodable, Equatable {
        var clientID: String

        private enum CodingKeys: String, CodingKey, CaseIterable {
            case clientID
        }

        init(from decoder: any Decoder) throws {
            clientID = try decoder.strictContainer(keyedBy: CodingKeys.self).decode(String.self, forKey: .clientID)
        }
    }

    @Test func aFileInTheFormatLoads() throws {
        try withFile(#"{"listenBacklog": 8, "clients": [{"clientID": "c"}]}"#) { file in
            let service = try ConfigurationFile.load(Service.self, from: file)
            #expect(service.listenBacklog == 8)
            #expect(service.clients.map(\.clientID) == ["c"])
        }
    }

    @Test func anUnknownKeyIsRefusedNamingItAndTheKnownKeys() throws {
        try withFile(#"{"listenBacklog": 8, "listenBacklgo": 9}"#) { file in
            #expect(
                throws: ConfigurationError(file: file, field: "listenBacklgo", "unknown key; known keys are listenBacklog, redirectURIs, clients")
            ) {
                try ConfigurationFile.load(Service.self, from: file)
            }
        }
    }

    @Test func anUnknownKeyInAnArrayOfObjectsIsNamedByItsPath() throws {
        try withFile(#"{"listenBacklog": 8, "clients": [{"clientID": "a"}, {"clientID": "b", "secret": "x"}]}"#) { file in
            #expect(throws: ConfigurationError(file: file, field: "clients[1].secret", "unknown key; known keys are clientID")) {
                try ConfigurationFile.load(Service.self, from: file)
            }
        }
    }

    @Test(arguments: [
        ("listen_backlog", "listenBacklog", "listenBacklog"),
        ("redirect_uris", "redirectURIs", "redirectURIs"),
        ("redirectUris", "redirectURIs", "redirectURIs"),
        ("client_id", "clientID", "clients[0].clientID"),
    ])
    func anotherSpellingOfAKnownKeyIsRefusedWithTheKeyToWrite(written: String, known: String, path: String) throws {
        let json = #"{"listenBacklog": 8, "redirectURIs": [], "clients": [{"clientID": "c"}]}"#
            .replacing("\"\(known)\"", with: "\"\(written)\"")
        let field = path.replacing(known, with: written)
        try withFile(json) { file in
            #expect(throws: ConfigurationError(file: file, field: field, "renamed; write `\(known)` (configuration keys are camelCase)")) {
                try ConfigurationFile.load(Service.self, from: file)
            }
        }
    }

    @Test func theRenameMessageReadsAsOneLine() {
        let error = ConfigurationError(
            file: "oauth.json",
            field: "authorization_code_lifetime",
            "renamed; write `authorizationCodeLifetime` (configuration keys are camelCase)"
        )
        #expect(
            error.description
                == "oauth.json: `authorization_code_lifetime`: renamed; write `authorizationCodeLifetime` (configuration keys are camelCase)"
        )
    }

    @Test func aDecodingErrorCarriesTheFileAndTheField() throws {
        try withFile(#"{"listenBacklog": "8"}"#) { file in
            #expect(throws: ConfigurationError(file: file, field: "listenBacklog", "must be an integer")) {
                try ConfigurationFile.load(Service.self, from: file)
            }
        }
        try withFile(#"{"clients": []}"#) { file in
            #expect(throws: ConfigurationError(file: file, field: "listenBacklog", "is required")) {
                try ConfigurationFile.load(Service.self, from: file)
            }
        }
        try withFile(#"{"listenBacklog": 8, "clients": [{"clientID": 7}]}"#) { file in
            #expect(throws: ConfigurationError(file: file, field: "clients[0].clientID", "must be a string")) {
                try ConfigurationFile.load(Service.self, from: file)
            }
        }
    }

    @Test func textThatIsNotJSONNamesOnlyTheFile() throws {
        try withFile(#"{"listenBacklog": "#) { file in
            #expect(throws: ConfigurationError(file: file, "is not valid JSON")) {
                try ConfigurationFile.load(Service.self, from: file)
            }
        }
    }

    @Test func aMissingFileIsRefusedWithTheReason() {
        #expect(throws: ConfigurationError(file: "/nonexistent/appflipd.json", "cannot read: No such file or directory")) {
            try ConfigurationFile.load(Service.self, from: "/nonexistent/appflipd.json")
        }
    }

    @Test func aFileLargerThanTheLimitIsRefused() throws {
        try withFile(String(repeating: " ", count: ConfigurationFile.maxBytes + 1)) { file in
            #expect(throws: ConfigurationError(file: file, "is larger than \(ConfigurationFile.maxBytes) bytes")) {
                try ConfigurationFile.read(file)
            }
        }
    }

    @Test func aNestedConfigurationsFieldsArePrefixedWithWhereItIs() {
        let inner = ConfigurationError(field: "clientIDs[0]", "must be a non-empty string")
        #expect(inner.nested(under: "handler.appflip").field == "handler.appflip.clientIDs[0]")
        #expect(ConfigurationError(field: "[2]", "x").nested(under: "handler.exec.args").field == "handler.exec.args[2]")
        #expect(ConfigurationError("x").nested(under: "handler.builtin").field == "handler.builtin")
        #expect(inner.located(in: "a.json").located(in: "b.json").file == "a.json")
    }

    private func withFile(_ contents: String, _ body: (String) throws -> Void) throws {
        var template = Array("/tmp/appflip-configuration-XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        try #require(fd >= 0)
        let path = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        defer { unlink(path) }
        let bytes = Array(contents.utf8)
        let written = write(fd, bytes, bytes.count)
        close(fd)
        try #require(written == bytes.count)
        try body(path)
    }
}
