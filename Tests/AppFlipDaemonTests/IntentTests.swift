import AppFlipClient
import AppFlipCore
import AppFlipDaemon
import AppFlipProtocol
import AppFlipTesting
import FoundationEssentials
import NIOConcurrencyHelpers
import NIOCore
import Testing

/// `start`: explicit intents resolved as Android's activity manager resolves them, delivered to the app's
/// handler with the caller the daemon vouches for, and the result carried back; over a real socket.
@Suite struct IntentTests {
    static let partnerPackage = "com.example.partner"
    static let action = "com.example.partner.APP_FLIP"
    static let googlePackage = "com.google.android.googlequicksearchbox"
    static let googleFingerprint = Array(repeating: "AB", count: 32).joined(separator: ":")
    static let partnerFingerprint = Array(repeating: "12", count: 32).joined(separator: ":")

    /// The partner's identity: `.AppFlipActivity` for the action, exported, in the DEFAULT category, and
    /// three broken declarations of other actions.
    static let partner = AndroidIdentity(
        package: partnerPackage,
        fingerprints: [partnerFingerprint],
        activities: [
            AndroidActivity(name: ".AppFlipActivity", actions: [action], exported: true),
            AndroidActivity(name: ".Hidden", actions: ["com.example.partner.HIDDEN"], exported: false),
            AndroidActivity(name: ".NoDefault", actions: ["com.example.partner.NO_DEFAULT"], categories: [], exported: true),
        ]
    )

    static let google = AndroidIdentity(package: googlePackage, fingerprints: [googleFingerprint])

    /// App Flip's intent, as the Google app sends it.
    static func appFlipIntent(package: String = partnerPackage, action: String = action) -> Intent {
        Intent(
            action: action,
            package: package,
            extras: [
                "CLIENT_ID": .string("client-1"),
                "SCOPE": .stringArray(["profile", "email"]),
                "REDIRECT_URI": .string("https://oauth-redirect.googleusercontent.com/r/project"),
            ]
        )
    }

    /// Registers the Google app's identity on a connection of its own.
    static func googleApp(_ daemon: TestDaemon) async throws -> AppFlipConnection {
        let connection = try await daemon.connect(client: "google")
        _ = try await connection.register(
            RegisterRequest(appID: "G.google", domains: [], android: google),
            handler: ImmediateLiveApp { _ in LiveAnswer(continue: false) }
        )
        return connection
    }

    /// A live partner app that records each push and answers with `result`.
    static func livePartner(
        _ daemon: TestDaemon,
        seen: NIOLockedValueBox<[IntentPush]>,
        result: @escaping @Sendable (IntentPush) -> IntentResult
    ) async throws -> AppFlipConnection {
        let connection = try await daemon.connect(client: "partner")
        _ = try await connection.register(
            RegisterRequest(appID: "P.partner", domains: [], android: partner),
            handler: ImmediateLiveApp(intents: { push in
                seen.withLockedValue { $0.append(push) }
                return result(push)
            })
        )
        return connection
    }

    /// Sends `start` and returns the error reply, failing the test if it succeeded.
    static func startError(_ connection: AppFlipConnection, _ intent: Intent, forResult: Bool = true) async throws -> ErrorBody {
        let reply = try await connection.send(.start(StartRequest(intent: intent, forResult: forResult))).get()
        #expect(reply.op == .start)
        return try #require(reply.error, "expected an error, got \(reply)")
    }

    @Test func anIntentForAResultReachesTheActivityWithTheVouchedCallerAndItsResultComesBack() async throws {
        try await withTestDaemon { daemon in
            let seen = NIOLockedValueBox<[IntentPush]>([])
            let partner = try await Self.livePartner(daemon, seen: seen) { _ in
                IntentResult(resultCode: IntentResult.ok, extras: ["AUTHORIZATION_CODE": .string("code-123")])
            }
            defer { Task { await partner.close() } }
            let google = try await Self.googleApp(daemon)
            let started = try await google.start(Self.appFlipIntent(), forResult: true)
            #expect(started.app == "P.partner")
            #expect(started.package == Self.partnerPackage)
            #expect(started.activity == "com.example.partner.AppFlipActivity")
            #expect(started.resultCode == -1)
            // The caller reads the result whole.
            #expect(started.extras == ["AUTHORIZATION_CODE": .string("code-123")])
            let push = try #require(seen.withLockedValue { $0.first })
            #expect(push.app == "P.partner")
            #expect(push.activity == "com.example.partner.AppFlipActivity")
            #expect(push.intent == Self.appFlipIntent())
            #expect(push.intent.extras["SCOPE"]?.stringArray == ["profile", "email"])
            #expect(push.intent.extras["SCOPE"]?.string == nil, "a String[] read as a String is lost, as on Android")
            #expect(push.forResult)
            #expect(push.caller == AndroidCaller(package: Self.googlePackage, fingerprints: [Self.googleFingerprint]))
        }
    }

    @Test func theCalleeLearnsNoCallerWhenNotStartedForAResultOrWhenTheCallerHasNoIdentity() async throws {
        try await withTestDaemon { daemon in
            let seen = NIOLockedValueBox<[IntentPush]>([])
            let partner = try await Self.livePartner(daemon, seen: seen) { _ in IntentResult(resultCode: IntentResult.ok) }
            defer { Task { await partner.close() } }
            let google = try await Self.googleApp(daemon)
            let notForResult = try await google.start(Self.appFlipIntent(), forResult: false)
            #expect(notForResult.resultCode == nil)
            #expect(notForResult.extras == nil)
            let anonymous = try await daemon.connect()
            let unidentified = try await anonymous.start(Self.appFlipIntent(), forResult: true)
            #expect(unidentified.resultCode == -1)
            let pushes = seen.withLockedValue { $0 }
            #expect(pushes.map(\.forResult) == [false, true])
            #expect(pushes.map(\.caller) == [nil, nil])
        }
    }

    @Test func aStaticAppIsReachedByItsPackageAndEachRefusalIsAndroids() async throws {
        let apps = [TestApp(appID: "T.partner", domains: [], handler: .accept, android: Self.partner)]
        try await withTestDaemon(apps: apps) { daemon in
            let google = try await Self.googleApp(daemon)
            let accepted = try await google.start(Self.appFlipIntent(), forResult: true)
            #expect(accepted.app == "T.partner")
            #expect(accepted.resultCode == IntentResult.ok)
            #expect(accepted.extras == [:])

            let unknown = try await Self.startError(google, Self.appFlipIntent(package: "com.example.nobody"))
            #expect(unknown.code == .unknownPackage)
            #expect(unknown.field == "intent.package")

            let noAction = try await Self.startError(google, Self.appFlipIntent(action: "com.example.partner.OTHER"))
            #expect(noAction.code == .activityNotFound)
            #expect(noAction.app == "T.partner")
            #expect(noAction.message.contains("no activity of com.example.partner handles the action"))

            let noDefault = try await Self.startError(google, Self.appFlipIntent(action: "com.example.partner.NO_DEFAULT"))
            #expect(noDefault.code == .activityNotFound)
            #expect(noDefault.message.contains("com.example.partner.NoDefault lists the action"))
            #expect(noDefault.message.contains("android.intent.category.DEFAULT"))

            let hidden = try await Self.startError(google, Self.appFlipIntent(action: "com.example.partner.HIDDEN"))
            #expect(hidden.code == .activityNotExported)
            #expect(hidden.message.contains("com.example.partner.Hidden is not exported"))
        }
    }

    @Test func aLiveAppThatHandlesNoIntentsReturnsResultCanceledAsAnActivityWithoutSetResult() async throws {
        try await withTestDaemon { daemon in
            let partner = try await daemon.connect()
            _ = try await partner.register(
                RegisterRequest(appID: "P.partner", domains: [], android: Self.partner),
                handler: ImmediateLiveApp { _ in LiveAnswer(continue: true) }
            )
            let client = try await daemon.connect()
            let started = try await client.start(Self.appFlipIntent(), forResult: true)
            #expect(started.resultCode == IntentResult.canceled)
            #expect(started.extras == [:])
        }
    }

    @Test func aHandlerThatTakesNoIntentsFailsTheStart() async throws {
        let apps = [TestApp(appID: "T.exec", domains: [], handler: .script("exit 0"), android: Self.partner)]
        try await withTestDaemon(apps: apps) { daemon in
            let client = try await daemon.connect()
            let error = try await Self.startError(client, Self.appFlipIntent())
            #expect(error.code == .handlerFailed)
            #expect(error.message == "T.exec's exec handler takes no intents")
        }
    }

    @Test func aUIDMayBeOnlyThePackagesThePolicyGrantsAndNoPackageAnotherAppIs() async throws {
        var configuration = DaemonConfiguration()
        configuration.claimPolicy = ClaimPolicy(androidPackages: [0: ["com.example.mine"], 12345: [Self.googlePackage]])
        let apps = [TestApp(appID: "T.partner", domains: [], handler: .accept, android: Self.partner)]
        try await withTestDaemon(configuration: configuration, apps: apps) { daemon in
            let connection = try await daemon.connect()
            let denied = try await connection.send(.register(RegisterRequest(appID: "G.google", domains: [], android: Self.google))).get()
            #expect(denied.error?.code == .registrationDenied)
            #expect(denied.error?.message == "uid 0 may not register as the Android package \(Self.googlePackage) (claimPolicy.androidPackages)")
            // Nothing was registered: the start has no identity to carry.
            #expect(try await daemon.connect().apps().map(\.appID) == ["T.partner"])
        }
        try await withTestDaemon(apps: apps) { daemon in
            let connection = try await daemon.connect()
            let taken = AndroidIdentity(package: Self.partnerPackage, fingerprints: [Self.googleFingerprint])
            let conflict = try await connection.send(.register(RegisterRequest(appID: "X.fake", domains: [], android: taken))).get()
            #expect(conflict.error?.code == .claimConflict)
            #expect(conflict.error?.app == "T.partner")
            #expect(conflict.error?.message == "the Android package com.example.partner belongs to T.partner, a static app")
        }
    }

    @Test func anOverrideUIDsLiveAppTakesAStaticPackageUntilItGoesAway() async throws {
        var configuration = DaemonConfiguration()
        configuration.claimPolicy = ClaimPolicy(overrideUIDs: [0])
        let apps = [TestApp(appID: "T.partner", domains: [], handler: .accept, android: Self.partner)]
        try await withTestDaemon(configuration: configuration, apps: apps) { daemon in
            let seen = NIOLockedValueBox<[IntentPush]>([])
            let live = try await Self.livePartner(daemon, seen: seen) { _ in IntentResult(resultCode: IntentResult.firstUser) }
            let client = try await daemon.connect()
            #expect(try await client.start(Self.appFlipIntent(), forResult: true).app == "P.partner")
            await live.close()
            // Once the daemon has seen the live app go, the static app is the package again.
            while try await client.apps().contains(where: { $0.appID == "P.partner" }) {}
            let started = try await client.start(Self.appFlipIntent(), forResult: true)
            #expect(started.app == "T.partner")
            #expect(started.resultCode == IntentResult.ok)
            #expect(seen.withLockedValue { $0.count } == 1)
        }
    }

    @Test(arguments: [
        (#"{"CLIENT_ID":{"string":1}}"#, "intent.extras.CLIENT_ID.string", "must be a string"),
        (#"{"SCOPE":{"stringArray":"profile"}}"#, "intent.extras.SCOPE.stringArray", "must be an array"),
        (#"{"N":{"int":2147483648}}"#, "intent.extras.N.int", "is invalid: a Java int is between -2147483648 and 2147483647"),
        (#"{"N":{"int":1.5}}"#, "intent.extras.N.int", "must be an integer"),
        (
            #"{"N":{"long":1}}"#, "intent.extras.N",
            "is invalid: an extra is an object with one key, its type: string, stringArray, stringArrayList, int, boolean"
        ),
        (
            #"{"N":{"string":"a","int":1}}"#, "intent.extras.N",
            "is invalid: an extra is an object with one key, its type: string, stringArray, stringArrayList, int, boolean"
        ),
        (#"{"N":"plain"}"#, "intent.extras.N", "must be an object"),
    ])
    func anExtraOfAnotherTypeIsRefusedNamingIt(extras: String, field: String, message: String) async throws {
        try await withTestDaemon { daemon in
            let client = try await daemon.connect()
            let line = #"{"id":7,"op":"start","forResult":true,"intent":{"action":"a.b.C","package":"com.example.partner","extras":\#(extras)}}"#
            let reply = try await client.rawError(Array(line.utf8))
            #expect(reply.id == .number(7))
            #expect(reply.error?.code == .invalidRequest)
            #expect(reply.error?.field == field)
            #expect(reply.error?.message == "`\(field)` \(message)")
        }
    }

    @Test func anIntentOverItsBoundsOrWithABadPackageIsRefusedNamingTheField() async throws {
        try await withTestDaemon { daemon in
            let client = try await daemon.connect()
            var many = Self.appFlipIntent()
            for index in 0..<IntentLimits.maxExtras { many.extras["EXTRA_\(index)"] = .boolean(true) }
            let tooMany = try await Self.startError(client, many)
            #expect(tooMany.code == .invalidRequest)
            #expect(tooMany.field == "intent.extras")
            #expect(tooMany.message == "`intent.extras` is invalid: has 67 extras, more than 64")

            var long = Self.appFlipIntent()
            long.extras["SCOPE"] = .stringArray(Array(repeating: "s", count: IntentLimits.maxElements + 1))
            let tooLong = try await Self.startError(client, long)
            #expect(tooLong.field == "intent.extras.SCOPE")
            #expect(tooLong.message == "`intent.extras.SCOPE` is invalid: has 257 elements, more than 256")

            let badPackage = try await Self.startError(client, Self.appFlipIntent(package: "partner"))
            #expect(badPackage.code == .invalidRequest)
            #expect(badPackage.field == "intent.package")

            let noAction = try await Self.startError(client, Self.appFlipIntent(action: ""))
            #expect(noAction.field == "intent.action")
        }
    }

    @Test(.timeLimit(.minutes(5))) func aLiveAppThatDisconnectsMidIntentFailsItAtOnce() async throws {
        // The live-app timeout is far longer than the test: only the disconnection can end the start.
        var configuration = DaemonConfiguration()
        configuration.liveAppTimeoutSeconds = 3600
        try await withTestDaemon(configuration: configuration) { daemon in
            let partner = try await daemon.connect()
            let (pushes, arrived) = AsyncStream.makeStream(of: IntentPush.self)
            _ = try await partner.register(
                RegisterRequest(appID: "P.vanishing", domains: [], android: Self.partner),
                handler: AsyncLiveApp(intents: { push in
                    arrived.yield(push)
                    try? await Task.sleep(for: .seconds(3600))
                    return IntentResult(resultCode: IntentResult.ok)
                })
            )
            let google = try await Self.googleApp(daemon)
            let pending = google.send(.start(StartRequest(intent: Self.appFlipIntent(), forResult: true)))
            for await _ in pushes { break }
            await partner.close()
            let reply = try await pending.get()
            #expect(reply.error?.code == .handlerFailed)
            #expect(reply.error?.app == "P.vanishing")
            #expect(reply.error?.message == "the live app P.vanishing disconnected before answering")
            // Its package left with it.
            #expect(try await Self.startError(google, Self.appFlipIntent()).code == .unknownPackage)
        }
    }

    @Test func aLiveAppThatDoesNotReturnAResultTimesOut() async throws {
        var configuration = DaemonConfiguration()
        configuration.liveAppTimeoutSeconds = 0.3
        try await withTestDaemon(configuration: configuration) { daemon in
            let partner = try await daemon.connect()
            _ = try await partner.register(
                RegisterRequest(appID: "P.slow", domains: [], android: Self.partner),
                handler: AsyncLiveApp(intents: { _ in
                    try? await Task.sleep(for: .seconds(3600))
                    return IntentResult(resultCode: IntentResult.ok)
                })
            )
            let client = try await daemon.connect()
            let error = try await Self.startError(client, Self.appFlipIntent())
            #expect(error.code == .timeout)
            #expect(error.app == "P.slow")
        }
    }

    @Test func watchShowsTheIntentAndItsResultWithSecretExtrasByLengthOnly() async throws {
        try await withTestDaemon { daemon in
            let seen = NIOLockedValueBox<[IntentPush]>([])
            let partner = try await Self.livePartner(daemon, seen: seen) { _ in
                IntentResult(resultCode: IntentResult.ok, extras: ["AUTHORIZATION_CODE": .string("secret-code-123"), "ERROR_CODE": .int(7)])
            }
            defer { Task { await partner.close() } }
            let watcher = try await daemon.connect()
            var events = try await watcher.watch().makeAsyncIterator()
            let google = try await Self.googleApp(daemon)
            _ = try await google.start(Self.appFlipIntent(), forResult: true)
            let event = try #require(await events.next())
            #expect(
                event.url
                    == "intent:#Intent;action=com.example.partner.APP_FLIP;package=com.example.partner;component=com.example.partner/.AppFlipActivity;end"
            )
            #expect(event.app == "P.partner")
            #expect(event.outcome == "handled")
            #expect(event.client == "google")
            let intent = try #require(event.intent)
            #expect(intent.caller == Self.googlePackage)
            #expect(intent.forResult)
            #expect(intent.extras["CLIENT_ID"] == .string("client-1"))
            #expect(intent.resultCode == -1)
            #expect(intent.resultExtras?["AUTHORIZATION_CODE"] == .string("[redacted:15B]"))
            #expect(intent.resultExtras?["ERROR_CODE"] == .int(7))
            let line = String(decoding: ServerMessage.event(event).encodedLine(), as: UTF8.self)
            #expect(!line.contains("secret-code-123"))
        }
    }

    @Test func appsShowsAndroidIdentities() async throws {
        let apps = [TestApp(appID: "T.partner", domains: [], handler: .accept, android: Self.partner)]
        try await withTestDaemon(apps: apps) { daemon in
            let google = try await Self.googleApp(daemon)
            let listed = try await google.apps()
            #expect(listed.map(\.appID) == ["T.partner", "G.google"])
            #expect(listed.map(\.android) == [Self.partner, Self.google])
            #expect(listed.map(\.domains) == [[], []])
        }
    }

    @Test func anIntentHandoffIsAnsweredWithResultAndAnActivityWithAnswer() async throws {
        try await withTestDaemon { daemon in
            try await RawLineSession.with(socket: daemon.socketPath) { partner in
                _ = try await partner.exchange(#"{"id":0,"op":"hello","version":1}"#)
                let register =
                    #"{"id":1,"op":"register","appID":"P.raw","android":{"package":"com.example.partner","fingerprints":["\#(Self.partnerFingerprint)"],"activities":[{"name":".AppFlipActivity","actions":["\#(Self.action)"],"categories":["android.intent.category.DEFAULT"],"exported":true}]}}"#
                #expect(try await partner.exchange(register)?.error == nil)
                let client = try await daemon.connect()
                let pending = client.send(.start(StartRequest(intent: Self.appFlipIntent(), forResult: true)))
                var handoff: UInt64?
                while handoff == nil, let message = try await partner.next() {
                    if case .intent(let push) = message { handoff = push.handoff }
                }
                let wrong = try await partner.exchange(#"{"id":2,"op":"answer","handoff":\#(handoff!),"continue":true}"#)
                #expect(wrong?.error?.code == .invalidRequest)
                #expect(wrong?.error?.message == "handoff \(handoff!) is an intent: answer it with result, not answer")
                // A result over the bounds is refused, and the start still waits for a good one.
                let many = (0...IntentLimits.maxExtras).map { #""E\#($0)":{"boolean":true}"# }.joined(separator: ",")
                let oversized = try await partner.exchange(#"{"id":3,"op":"result","handoff":\#(handoff!),"resultCode":-1,"extras":{\#(many)}}"#)
                #expect(oversized?.error?.code == .invalidRequest)
                #expect(oversized?.error?.field == "extras")
                #expect(oversized?.error?.message == "`extras` is invalid: has 65 extras, more than 64")
                try await partner.send(
                    #"{"id":4,"op":"result","handoff":\#(handoff!),"resultCode":-2,"extras":{"ERROR_TYPE":{"int":3},"ERROR_CODE":{"int":1}}}"#
                )
                let started = try await pending.get()
                #expect(
                    try started.outcome.get()
                        == .start(
                            StartResult(
                                app: "P.raw",
                                package: Self.partnerPackage,
                                activity: "com.example.partner.AppFlipActivity",
                                resultCode: -2,
                                extras: ["ERROR_TYPE": .int(3), "ERROR_CODE": .int(1)]
                            )
                        )
                )
            }
        }
    }
}
