import AppFlipCore
import AppFlipProtocol
import AppFlipTesting
import FoundationEssentials
import Testing

/// docs/protocol.md is the contract: every example exchange in it — a block of request lines followed by
/// the block of the replies — is sent to a real daemon set up as the page's "The examples" section says,
/// and must get exactly those replies.
@Suite struct ProtocolExamplesTests {
    /// One request block and the replies the page shows for it.
    struct Example: CustomStringConvertible {
        var line: Int
        var requests: [String]
        var replies: [String]
        var description: String { "docs/protocol.md:\(line)" }
    }

    static let document: String = {
        var components = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        components.removeLast(3)
        return (try? String(contentsOfFile: components.joined(separator: "/") + "/docs/protocol.md", encoding: .utf8)) ?? ""
    }()

    /// Every untagged code block directly followed by a `json` one. A block of requests with `…` is schematic
    /// (it cannot be sent) and is not an example; a reply's `…` is compared like any other character, since
    /// the daemon sends some (`hello_required`'s message).
    static let examples: [Example] = {
        var blocks: [(line: Int, tag: String, lines: [String])] = []
        var open: (line: Int, tag: String, lines: [String])?
        for (number, line) in document.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if line.hasPrefix("```") {
                if let block = open {
                    blocks.append(block)
                    open = nil
                } else {
                    open = (number + 1, String(line.dropFirst(3)), [])
                }
            } else if open != nil {
                open!.lines.append(String(line))
            } else if !line.allSatisfy(\.isWhitespace) {
                blocks.append((number + 1, "text", []))
            }
        }
        return zip(blocks, blocks.dropFirst()).compactMap { request, reply in
            guard request.tag == "", reply.tag == "json" else { return nil }
            guard !request.lines.contains(where: { $0.contains("…") }) else { return nil }
            return Example(line: request.line, requests: request.lines, replies: reply.lines)
        }
    }()

    /// The daemon of "The examples": T.accept, T.decline, T.android, T.web, and, from the `register` example on, the Google app.
    static let apps = [
        TestApp(
            appID: "T.accept",
            domains: ["applinks:accept.test"],
            components: [.object(["/": .string("/no/*"), "exclude": .bool(true)]), .object(["/": .string("*")])],
            handler: .accept
        ),
        TestApp(appID: "T.decline", domains: ["applinks:decline.test"], handler: .script("exit 1")),
        TestApp(
            appID: "T.android",
            domains: [],
            handler: .accept,
            android: AndroidIdentity(
                package: "com.example.partner",
                fingerprints: ["00:11:22:33:44:55:66:77:88:99:AA:BB:CC:DD:EE:FF:00:11:22:33:44:55:66:77:88:99:AA:BB:CC:DD:EE:FF"],
                activities: [
                    AndroidActivity(name: ".AppFlipActivity", actions: ["com.example.partner.APP_FLIP"], exported: true),
                    AndroidActivity(name: ".Internal", actions: ["com.example.partner.INTERNAL"], exported: false),
                    AndroidActivity(
                        name: ".Main",
                        actions: ["android.intent.action.MAIN"],
                        categories: ["android.intent.category.LAUNCHER"],
                        exported: true
                    ),
                ],
                intentFilters: [
                    IntentFilter(
                        autoVerify: true,
                        schemes: ["https"],
                        authorities: [.init(host: "android.test")],
                        paths: [try! PatternMatcher("/link/", kind: .prefix)]
                    )
                ]
            ),
            assetLinks: ["android.test": androidStatementList]
        ),
        TestApp(
            appID: "T.web",
            domains: [],
            handler: .accept,
            android: AndroidIdentity(
                package: "com.example.web",
                fingerprints: ["00:11:22:33:44:55:66:77:88:99:AA:BB:CC:DD:EE:FF:00:11:22:33:44:55:66:77:88:99:AA:BB:CC:DD:EE:FF"],
                intentFilters: [
                    IntentFilter(
                        actions: ["android.intent.action.VIEW"],
                        categories: ["android.intent.category.DEFAULT", "android.intent.category.BROWSABLE"],
                        schemes: ["https"],
                        authorities: [.init(host: "web.test")]
                    )
                ]
            )
        ),
    ]

    /// `android.test`'s statement list: `com.example.partner` for every link but `/link/internal/*` (a dynamic rule).
    static let androidStatementList: JSONValue = .array([
        .object([
            "relation": .array([.string("delegate_permission/common.handle_all_urls")]),
            "target": .object([
                "namespace": .string("android_app"),
                "package_name": .string("com.example.partner"),
                "sha256_cert_fingerprints": .array([
                    .string("00:11:22:33:44:55:66:77:88:99:AA:BB:CC:DD:EE:FF:00:11:22:33:44:55:66:77:88:99:AA:BB:CC:DD:EE:FF")
                ]),
            ]),
            "relation_extensions": .object([
                "delegate_permission/common.handle_all_urls": .object([
                    "dynamic_app_link_components": .array([
                        .object(["/": .string("/link/internal/*"), "exclude": .bool(true)]),
                        .object(["/": .string("*")]),
                    ])
                ])
            ]),
        ])
    ])

    @Test(.timeLimit(.minutes(5))) func everyExampleGetsExactlyTheRepliesThePageShows() async throws {
        let examples = Self.examples
        #expect(examples.count >= 8, "found \(examples.count) examples in docs/protocol.md")
        try await withTestDaemon(apps: Self.apps) { daemon in
            try await Self.run(examples[...], socket: daemon.socketPath, liveApp: nil)
        }
    }

    /// A client learns the ops from the page: the ops `unknown_op` names (its example is one of those checked
    /// against the daemon above) are exactly the page's `### `op`` sections.
    @Test func theOpsUnknownOpNamesAreThePagesOps() throws {
        let replies: [String] = Self.examples.flatMap(\.replies)
        let line = try #require(replies.first { $0.contains(#""code":"unknown_op""#) })
        let listed = try #require(line.split(separator: "protocol v1 has ").last?.prefix { $0 != "\"" })
        let named = listed.split(separator: ",").map { String($0.drop { $0 == " " }) }
        #expect(named.sorted() == ProtocolDocument(Self.document).ops.sorted())
    }

    /// Runs the first example on a connection of its own, and the rest while that connection stays open: a
    /// registration lasts as long as its connection. An `answer` example runs on the live app's connection,
    /// once an `open` from another connection has pushed it handoff 1.
    static func run(_ examples: ArraySlice<Example>, socket: String, liveApp: RawLineSession?) async throws {
        guard let example = examples.first else { return }
        let answers = example.requests.contains { $0.contains(#""op":"answer""#) }
        if answers, let liveApp {
            try await RawLineSession.with(socket: socket) { opener in
                try await opener.send(#"{"id":0,"op":"hello","version":1}"#)
                try await opener.send(
                    #"{"id":1,"op":"open","activity":{"activityType":"NSUserActivityTypeBrowsingWeb","webpageURL":"https://oauth-redirect.googleusercontent.com/a/com.google.OPA"}}"#
                )
                check(example, replies: try await send(example, on: liveApp))
            }
            return try await run(examples.dropFirst(), socket: socket, liveApp: liveApp)
        }
        try await RawLineSession.with(socket: socket) { raw in
            check(example, replies: try await send(example, on: raw))
            let registers = example.requests.contains { $0.contains(#""op":"register""#) }
            try await run(examples.dropFirst(), socket: socket, liveApp: registers ? raw : liveApp)
        }
    }

    static func check(_ example: Example, replies: [String]) {
        #expect(replies.count == example.replies.count, "\(example): \(replies.count) replies, the page shows \(example.replies.count)")
        for (actual, shown) in zip(replies, example.replies) {
            #expect((try? normalized(actual)) == (try? normalized(shown)), "\(example)\n  page:   \(shown)\n  daemon: \(actual)")
            for member in Set(ProtocolDocument(document).undocumentedMembers(of: (try? normalized(actual)) ?? .null)).sorted() {
                Issue.record("\(example): the reply's member \(member) is named nowhere in its op's section of docs/protocol.md")
            }
        }
    }

    /// Sends the example's lines, after a `hello` of its own unless it shows one or is a live app's, and
    /// returns the replies, skipping pushes.
    static func send(_ example: Example, on raw: RawLineSession) async throws -> [String] {
        let answers = example.requests.contains { $0.contains(#""op":"answer""#) }
        if !answers, !example.requests.contains(where: { $0.contains(#""op":"hello""#) }) {
            guard try await raw.exchange(#"{"id":0,"op":"hello","version":1}"#)?.error == nil else { throw ExampleError.helloRefused }
        }
        var replies: [String] = []
        for request in example.requests {
            if answers {
                // The push of handoff 1 comes first.
                while let line = await raw.nextLine(), !line.contains(#""push":"activity""#) {}
            }
            try await raw.send(request)
            while let line = await raw.nextLine() {
                if line.contains(#""push":"#) { continue }
                replies.append(line)
                break
            }
        }
        return replies
    }

    enum ExampleError: Error { case helloRefused }

    /// The line as a JSON value, with what differs from run to run made equal: peer credentials, and an app
    /// file's path.
    static func normalized(_ line: String) throws -> JSONValue {
        func normalize(_ value: JSONValue, key: String?) -> JSONValue {
            switch (key, value) {
            case ("pid", .number), ("uid", .number), ("gid", .number): return .number(0)
            case ("source", .string): return .string("")
            case (_, .object(let members)): return .object(members.reduce(into: [:]) { $0[$1.key] = normalize($1.value, key: $1.key) })
            case (_, .array(let elements)): return .array(elements.map { normalize($0, key: nil) })
            default: return value
            }
        }
        return normalize(try JSONDecoder().decode(JSONValue.self, from: Data(line.utf8)), key: nil)
    }
}
