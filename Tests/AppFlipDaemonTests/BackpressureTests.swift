import AppFlipClient
import AppFlipDaemon
import AppFlipProtocol
import AppFlipTestSupport
import AppFlipTesting
import Glibc
import NIOConcurrencyHelpers
import NIOCore
import Testing

/// A live app that does not read its pushes costs the daemon a bounded amount of memory: its handoffs fail
/// fast with `handler_failed` instead of queueing, and an app a whole timeout behind is closed.
@Suite struct BackpressureTests {
    static let staticApps = [TestApp(appID: "T.static", domains: ["applinks:static.test"], handler: .accept)]

    /// A long URL makes each push about 1 KiB, so that the socket buffers fill after a few hundred.
    static let stuckURL = "https://stuck.test/" + String(repeating: "p", count: 900)

    @Test(.timeLimit(.minutes(5))) func aLiveAppThatDoesNotReadFailsItsHandoffsFast() async throws {
        // Neither limit but writability can end these handoffs before the test does.
        var configuration = DaemonConfiguration()
        configuration.liveAppTimeoutSeconds = 120
        configuration.maxPendingPerLiveApp = 1 << 20
        configuration.maxInFlightPerConnection = 1 << 20
        try await withTestDaemon(configuration: configuration, apps: Self.staticApps) { daemon in
            let app = try NonReadingApp(socket: daemon.socketPath, appID: "T.stuck", domain: "applinks:stuck.test")
            defer { app.close() }
            let client = try await daemon.connect()
            try await waitUntil("T.stuck registered") { try await client.apps().contains { $0.appID == "T.stuck" } }

            let total = 6000
            let counts = NIOLockedValueBox((answered: 0, notReading: 0, other: [String]()))
            let open = RequestBody.open(OpenRequest(activity: Activity(webpageURL: Self.stuckURL), options: .init(universalLinksOnly: true)))
            for _ in 0..<total {
                client.send(open).whenComplete { result in
                    counts.withLockedValue { counts in
                        counts.answered += 1
                        switch result {
                        case .success(let reply) where reply.error?.code == .handlerFailed && reply.error?.app == "T.stuck":
                            if reply.error?.message.contains("is not reading its pushes") == true { counts.notReading += 1 }
                        case .success(let reply): counts.other.append("\(reply)")
                        case .failure(let error): counts.other.append("\(error)")
                        }
                    }
                }
            }
            // Only the handoffs pushed before the buffers filled wait (for an hour); the rest fail at once.
            let pushedAtMost = 2000
            try await waitUntil("every handoff but those pushed answered", within: .seconds(60)) {
                counts.withLockedValue { $0.answered } >= total - pushedAtMost
            }
            let result = counts.withLockedValue { $0 }
            #expect(result.other.isEmpty, "\(result.other.prefix(3))")
            #expect(result.notReading >= total - pushedAtMost)
            #expect(result.notReading == result.answered)

            // Meanwhile the daemon serves everyone else, and the app is still registered.
            let other = try await daemon.connect()
            let served = try await other.open("https://static.test/")
            #expect(served.app == "T.static")
            #expect(try await other.apps().contains { $0.appID == "T.stuck" })
            #expect(try await other.openError(Self.stuckURL).message.contains("is not reading its pushes"))
        }
    }

    /// An app that stays unwritable for the live-app timeout is closed: the pushes queued for it, whose
    /// handoffs have long been answered, go with it; its waiting handoffs say why.
    @Test(.timeLimit(.minutes(5))) func aLiveAppThatFallsATimeoutBehindIsClosed() async throws {
        var configuration = DaemonConfiguration()
        configuration.liveAppTimeoutSeconds = 1
        configuration.maxInFlightPerConnection = 1 << 20
        try await withTestDaemon(configuration: configuration) { daemon in
            let app = try NonReadingApp(socket: daemon.socketPath, appID: "T.stuck", domain: "applinks:stuck.test")
            defer { app.close() }
            let client = try await daemon.connect()
            try await waitUntil("T.stuck registered") { try await client.apps().contains { $0.appID == "T.stuck" } }
            let open = RequestBody.open(OpenRequest(activity: Activity(webpageURL: Self.stuckURL), options: .init(universalLinksOnly: true)))
            let replies = (0..<3000).map { _ in client.send(open) }
            var messages: [String] = []
            for reply in replies { messages.append(try await reply.get().error?.message ?? "handled") }
            #expect(messages.contains { $0.contains("is not reading its pushes") })
            #expect(!messages.contains("handled"))
            // Its registration ends with its connection, a timeout after it stopped reading.
            try await waitUntil("T.stuck gone", within: .seconds(60)) { try await !client.apps().contains { $0.appID == "T.stuck" } }
            #expect(try await client.openError(Self.stuckURL).code == .noApp)
        }
    }

    @Test(.timeLimit(.minutes(5))) func aLiveAppWithTooManyPendingHandoffsFailsTheNextOneFast() async throws {
        var configuration = DaemonConfiguration()
        configuration.maxPendingPerLiveApp = 2
        configuration.liveAppTimeoutSeconds = 120
        try await withTestDaemon(configuration: configuration) { daemon in
            let app = try await daemon.connect()
            let held = HeldLiveApp()
            _ = try await app.register(registration("T.held", ["applinks:held.test"]), handler: held)
            let client = try await daemon.connect()
            let open = RequestBody.open(OpenRequest(activity: Activity(webpageURL: "https://held.test/"), options: .init(universalLinksOnly: true)))
            let first = client.send(open)
            let second = client.send(open)
            try await waitUntil("two handoffs held") { held.waiting == 2 }
            let third = try await client.send(open).get()
            #expect(third.error?.code == .handlerFailed)
            #expect(third.error?.app == "T.held")
            #expect(third.error?.message.contains("(maxPendingPerLiveApp)") == true)
            held.answerAll()
            #expect(try await first.get().error == nil)
            #expect(try await second.get().error == nil)
            // Answered, they free their places.
            let fourth = client.send(open)
            try await waitUntil("one handoff held") { held.waiting == 1 }
            held.answerAll()
            #expect(try await fourth.get().error == nil)
        }
    }
}

/// A live app that holds every push until the test answers them all.
private final class HeldLiveApp: LiveAppHandling {
    private let held = NIOLockedValueBox<[EventLoopPromise<LiveAnswer>]>([])

    var waiting: Int { held.withLockedValue(\.count) }

    func handle(_ activity: ActivityPush, eventLoop: any EventLoop) -> EventLoopFuture<LiveAnswer> {
        let promise = eventLoop.makePromise(of: LiveAnswer.self)
        held.withLockedValue { $0.append(promise) }
        return promise.futureResult
    }

    func answerAll() {
        let promises = held.withLockedValue { held in
            defer { held = [] }
            return held
        }
        for promise in promises { promise.succeed(LiveAnswer(continue: true)) }
    }
}

/// A live app on a bare socket that says `hello` and `register`, then reads nothing at all: the kernel's
/// socket buffers fill, then the daemon's.
private final class NonReadingApp {
    private var fd: Int32

    init(socket path: String, appID: String, domain: String) throws {
        fd = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Errno(errno) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { sunPath in
            for (index, byte) in path.utf8.enumerated() { sunPath[index] = byte }
        }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard connected == 0 else {
            let error = Errno(errno)
            Glibc.close(fd)
            throw error
        }
        let lines = """
            {"id":1,"op":"hello","version":\(ProtocolVersion.current)}
            {"id":2,"op":"register","appID":"\(appID)","domains":["\(domain)"],"components":[{"/":"*"}]}

            """
        let written = lines.utf8CString.withUnsafeBytes { write(fd, $0.baseAddress, $0.count - 1) }
        guard written == lines.utf8.count else { throw Errno(errno) }
    }

    func close() {
        guard fd >= 0 else { return }
        Glibc.close(fd)
        fd = -1
    }

    struct Errno: Error {
        var code: Int32
        init(_ code: Int32) { self.code = code }
    }
}
