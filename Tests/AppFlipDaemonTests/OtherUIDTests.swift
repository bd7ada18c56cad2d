import AppFlipClient
import AppFlipDaemon
import AppFlipProtocol
import AppFlipTestSupport
import AppFlipTesting
import FoundationEssentials
import Glibc
import Testing

/// The claim policy against a real second uid: a client run as `nobody` with setpriv, identified by the
/// daemon through SO_PEERCRED. Needs root (to switch uid) and python3 (the other uid's client).
@Suite(
    .enabled(if: getuid() == 0 && access("/usr/bin/setpriv", X_OK) == 0 && access("/usr/bin/python3", X_OK) == 0, "needs root, setpriv and python3")
)
struct OtherUIDTests {
    static let nobody: UInt32 = 65534

    /// Runs `requests` as uid/gid 65534 on one connection, after `hello`, and returns the replies.
    static func asNobody(_ daemon: TestDaemon, _ requests: [String]) async throws -> [Reply] {
        let script = """
            import socket, sys
            s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1]); f = s.makefile("rwb")
            for line in ['{"id":0,"op":"hello","version":1}'] + sys.argv[2:]:
                f.write((line + "\\n").encode()); f.flush(); print(f.readline().decode().rstrip("\\n"), flush=True)
            """
        // The socket is 0660 root:root; let the test's second uid in through the group.
        chown(daemon.socketPath, 0, gid_t(nobody))
        chmod(daemon.directory, 0o755)
        let outcome = try await TestCommandRunner.run(
            "/usr/bin/setpriv",
            [
                "--reuid=\(nobody)", "--regid=\(nobody)", "--clear-groups", "/usr/bin/python3", "-c", script, daemon.socketPath,
            ] + requests
        )
        #expect(outcome.status == 0, "\(outcome.standardError)")
        return try outcome.standardOutput.split(separator: "\n").map { try JSONDecoder().decode(Reply.self, from: Data($0.utf8)) }
    }

    static func register(_ appID: String, _ domain: String) -> String {
        #"{"id":1,"op":"register","appID":"\#(appID)","domains":["applinks:\#(domain)"],"components":[{"/":"*"}]}"#
    }

    @Test func anotherUIDCannotTakeALiveAppsIDOrDomain() async throws {
        try await withTestDaemon { daemon in
            let root = try await daemon.connect()
            _ = try await root.register(registration("T.root", ["applinks:root.test"]), handler: ImmediateLiveApp { _ in LiveAnswer(continue: true) })
            let replies = try await Self.asNobody(
                daemon,
                [Self.register("T.root", "elsewhere.test"), Self.register("T.mine", "*.root.test"), Self.register("T.mine", "mine.test")]
            )
            #expect(replies[0].helloPeer?.uid == Self.nobody)
            #expect(replies[1].error?.code == .claimConflict)
            #expect(replies[1].error?.message.contains("uid 0") == true)
            #expect(replies[2].error?.code == .claimConflict)
            #expect(replies[3].error == nil)
        }
    }

    @Test func registerUIDsRefusesOtherUIDs() async throws {
        var configuration = DaemonConfiguration()
        configuration.claimPolicy = ClaimPolicy(registerUIDs: [0])
        try await withTestDaemon(configuration: configuration) { daemon in
            let replies = try await Self.asNobody(daemon, [Self.register("T.mine", "mine.test")])
            #expect(replies[1].error?.code == .registrationDenied)
            #expect(replies[1].error?.message.contains("uid 65534") == true)
        }
    }

    @Test func anOverrideUIDMayTakeAnotherUIDsDomain() async throws {
        var configuration = DaemonConfiguration()
        configuration.claimPolicy = ClaimPolicy(overrideUIDs: [Self.nobody])
        try await withTestDaemon(configuration: configuration) { daemon in
            let root = try await daemon.connect()
            _ = try await root.register(registration("T.root", ["applinks:root.test"]), handler: ImmediateLiveApp { _ in LiveAnswer(continue: true) })
            let replies = try await Self.asNobody(daemon, [Self.register("T.taker", "root.test")])
            #expect(replies[1].error == nil)
        }
    }
}

extension Reply {
    var helloPeer: PeerInfo? {
        if case .success(.hello(let hello)) = outcome { return hello.peer }
        return nil
    }
}
