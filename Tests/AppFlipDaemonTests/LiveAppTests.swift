import AppFlipClient
import AppFlipCore
import AppFlipDaemon
import AppFlipProtocol
import AppFlipTesting
import Glibc
import NIOConcurrencyHelpers
import NIOCore
import Testing

/// Live apps over the socket: registration, the claim policy, answers, and disconnection.
@Suite struct LiveAppTests {
    static let staticApps = [
        TestApp(appID: "T.static", domains: ["applinks:static.test"], handler: .accept),
        TestApp(
            appID: "T.partner",
            domains: ["applinks:partner.test"],
            handler: .script(#"read activity; echo "https://oauth-redirect.googleusercontent.com/a/com.google.OPA?code=abc&state=xyz""#)
        ),
    ]

    @Test func aLiveAppHandlesActivitiesAndOpensURLs() async throws {
        try await withTestDaemon(apps: Self.staticApps) { daemon in
            let app = try await daemon.connect()
            let seen = NIOLockedValueBox<[ActivityPush]>([])
            let registered = try await app.register(
                registration("T.live", ["applinks:live.test"]),
                handler: ImmediateLiveApp { push in
                    seen.withLockedValue { $0.append(push) }
                    return LiveAnswer(
                        continue: true,
                        open: [OpenURLRequest(url: "https://static.test/next", options: .init(universalLinksOnly: true))]
                    )
                }
            )
            #expect(registered.appID == "T.live")
            let client = try await daemon.connect()
            let result = try await client.open("https://live.test/path?q=1")
            #expect(result.status == .handled)
            #expect(result.app == "T.live")
            #expect(result.opened.map(\.status) == [.delivered])
            #expect(result.opened.first?.app == "T.static")
            let push = try #require(seen.withLockedValue { $0.first })
            #expect(push.activity.webpageURL == "https://live.test/path?q=1")
            #expect(push.activity.activityType == browsingWebActivityType)
            #expect(push.app == "T.live")
        }
    }

    @Test func aLiveAppThatDeclines() async throws {
        try await withTestDaemon { daemon in
            let app = try await daemon.connect()
            _ = try await app.register(
                registration("T.live", ["applinks:live.test"]),
                handler: ImmediateLiveApp { _ in LiveAnswer(continue: false, reason: "not signed in") }
            )
            let client = try await daemon.connect()
            let declined = try await client.openError("https://live.test/")
            #expect(declined.code == .declined)
            #expect(declined.app == "T.live")
            #expect(declined.reason == "not signed in")
            #expect(declined.message.hasSuffix(": not signed in"))
        }
    }

    /// The App Flip shape: the partner's handler opens Google's redirect URL, which the Google side, a live
    /// app, receives whole; the originator's reply shows it redacted.
    @Test func aResultURLIsDeliveredToTheLiveAppThatClaimsIt() async throws {
        try await withTestDaemon(apps: Self.staticApps) { daemon in
            let google = try await daemon.connect()
            let received = NIOLockedValueBox<[String]>([])
            _ = try await google.register(
                registration("EQHXZ8M8AV.com.google.OPA", ["applinks:oauth-redirect.googleusercontent.com"]),
                handler: ImmediateLiveApp { push in
                    received.withLockedValue { $0.append(push.activity.webpageURL ?? "") }
                    return LiveAnswer(continue: true)
                }
            )
            let result = try await google.open("https://partner.test/link?client_id=c&state=xyz")
            #expect(result.app == "T.partner")
            #expect(result.opened.count == 1)
            #expect(result.opened[0].status == .delivered)
            #expect(result.opened[0].app == "EQHXZ8M8AV.com.google.OPA")
            #expect(result.opened[0].url == "https://oauth-redirect.googleusercontent.com/a/com.google.OPA?code=[redacted:3B]&state=xyz")
            #expect(received.withLockedValue { $0 } == ["https://oauth-redirect.googleusercontent.com/a/com.google.OPA?code=abc&state=xyz"])
        }
    }

    @Test(.timeLimit(.minutes(5))) func aLiveAppThatDisconnectsMidHandoffFailsItAtOnce() async throws {
        // The live-app timeout is far longer than the test: only the disconnection can end the handoff.
        var configuration = DaemonConfiguration()
        configuration.liveAppTimeoutSeconds = 3600
        try await withTestDaemon(configuration: configuration) { daemon in
            let app = try await daemon.connect()
            let (pushes, arrived) = AsyncStream.makeStream(of: ActivityPush.self)
            _ = try await app.register(
                registration("T.vanishing", ["applinks:vanishing.test"]),
                handler: AsyncLiveApp { push in
                    arrived.yield(push)
                    try? await Task.sleep(for: .seconds(3600))
                    return LiveAnswer(continue: true)
                }
            )
            let client = try await daemon.connect()
            let pending = client.send(
                .open(OpenRequest(activity: Activity(webpageURL: "https://vanishing.test/"), options: .init(universalLinksOnly: true)))
            )
            for await _ in pushes { break }
            await app.close()
            let reply = try await pending.get()
            #expect(reply.error?.code == .handlerFailed)
            #expect(reply.error?.app == "T.vanishing")
            // Its registration ended with the connection.
            #expect(try await client.openError("https://vanishing.test/").code == .noApp)
        }
    }

    @Test func aLiveAppThatDoesNotAnswerTimesOut() async throws {
        var configuration = DaemonConfiguration()
        configuration.liveAppTimeoutSeconds = 0.3
        try await withTestDaemon(configuration: configuration) { daemon in
            let app = try await daemon.connect()
            _ = try await app.register(
                registration("T.slow", ["applinks:slow.test"]),
                handler: AsyncLiveApp { _ in
                    try? await Task.sleep(for: .seconds(3600))
                    return LiveAnswer(continue: true)
                }
            )
            let client = try await daemon.connect()
            #expect(try await client.openError("https://slow.test/").code == .timeout)
        }
    }

    @Test func registrationErrors() async throws {
        try await withTestDaemon(apps: Self.staticApps) { daemon in
            let app = try await daemon.connect()
            func register(_ request: RegisterRequest, on connection: AppFlipConnection) async throws -> ErrorBody? {
                try await connection.send(.register(request)).get().error
            }
            let staticID = try await register(registration("T.static", ["applinks:other.test"]), on: app)
            #expect(staticID?.code == .claimConflict)
            #expect(staticID?.app == "T.static")
            let staticDomain = try await register(registration("T.mine", ["applinks:*.static.test"]), on: app)
            #expect(staticDomain?.code == .claimConflict)
            #expect(staticDomain?.message.contains("applinks:static.test") == true)
            #expect(try await register(registration("T.mine", ["static.test"]), on: app)?.code == .invalidAssociation)
            #expect(try await register(registration("T.mine", []), on: app)?.code == .invalidAssociation)
            let bothForms = RegisterRequest(appID: "T.mine", domains: ["applinks:mine.test"], association: .object([:]), components: [])
            #expect(try await register(bothForms, on: app)?.code == .invalidRequest)
            let badDocument = RegisterRequest(appID: "T.mine", domains: ["applinks:mine.test"], association: .object(["applinks": .string("nope")]))
            #expect(try await register(badDocument, on: app)?.code == .invalidAssociation)
            // One rule: a field of the wrong JSON type is `invalid_request`, naming it; a well-typed document
            // the AASA loader refuses is `invalid_association`.
            let prefix = #"{"id":"r","op":"register","appID":"T.mine","domains":["applinks:mine.test"],"#
            for (fields, code, field) in [
                (#""association":"nope"}"#, ErrorCode.invalidRequest, "association"),
                (#""association":[1,2]}"#, .invalidRequest, "association"),
                (#""components":"notalist"}"#, .invalidRequest, "components"),
                (#""components":{"/":"*"}}"#, .invalidRequest, "components"),
                (#""components":[{"/":"/$(x"}]}"#, .invalidAssociation, "association"),
                (#""association":{"applinks":[1,2]}}"#, .invalidAssociation, "association"),
            ] {
                let refused = try await app.rawError(Array((prefix + fields).utf8))
                #expect(refused.error?.code == code, "\(fields)")
                #expect(refused.error?.field == field, "\(fields)")
            }

            #expect(try await register(registration("T.mine", ["applinks:mine.test"]), on: app) == nil)
            #expect(try await register(registration("T.second", ["applinks:second.test"]), on: app)?.code == .alreadyRegistered)
            let other = try await daemon.connect()
            #expect(try await register(registration("T.mine", ["applinks:elsewhere.test"]), on: other)?.code == .claimConflict)

            let answer = try await other.send(.answer(AnswerRequest(handoff: 1, continue: true))).get()
            #expect(answer.error?.code == .notRegistered)
            let unknown = try await app.send(.answer(AnswerRequest(handoff: 99, continue: true))).get()
            #expect(unknown.error?.code == .unknownHandoff)
        }
    }

    @Test func thePolicyRefusesUIDsItDoesNotList() async throws {
        var configuration = DaemonConfiguration()
        configuration.claimPolicy = ClaimPolicy(registerUIDs: [getuid() + 1])
        try await withTestDaemon(configuration: configuration) { daemon in
            let app = try await daemon.connect()
            let refused = try await app.send(.register(registration("T.live", ["applinks:live.test"]))).get()
            #expect(refused.error?.code == .registrationDenied)
        }
    }

    @Test func anOverrideUIDTakesOverAStaticAppsDomain() async throws {
        var configuration = DaemonConfiguration()
        configuration.claimPolicy = ClaimPolicy(overrideUIDs: [getuid()])
        try await withTestDaemon(configuration: configuration, apps: Self.staticApps) { daemon in
            let client = try await daemon.connect()
            #expect(try await client.open("https://static.test/").app == "T.static")
            let app = try await daemon.connect()
            _ = try await app.register(
                registration("T.override", ["applinks:static.test"]),
                handler: ImmediateLiveApp { _ in LiveAnswer(continue: true) }
            )
            // Live apps rank above static ones, so the override wins every URL both claim.
            #expect(try await client.open("https://static.test/").app == "T.override")
            let explained = try await client.explain("https://static.test/")
            #expect(explained.candidates.map(\.app) == ["T.override", "T.static"])
        }
    }
}
