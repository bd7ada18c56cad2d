import AppFlipClient
import AppFlipCore
import AppFlipDaemon
import AppFlipProtocol
import AppFlipTestSupport
import AppFlipTesting
import FoundationEssentials
import Glibc
import NIOCore
import Testing

/// The built `appflipd` executable: its socket file, signals, start-up refusals and reload.
@Suite(.serialized) struct DaemonProcessTests {
    static let apps = [
        TestApp(appID: "T.accept", domains: ["applinks:accept.test"], handler: .accept),
        TestApp(appID: "T.slow", domains: ["applinks:slow.test"], handler: .script("touch \"$0.started\"; sleep 2", timeoutSeconds: 30)),
    ]

    @Test func theSocketIsMode0660WhateverTheUmaskAndGoesAwayAtSIGTERM() async throws {
        let daemon = try TestDaemon.make(apps: Self.apps)
        defer { TestDirectory.remove(daemon.directory) }
        let previous = umask(0)
        defer { umask(previous) }
        let (mode, exit) = try await TestDaemonProcess.run(daemon) { _ in
            var info = stat()
            lstat(daemon.socketPath, &info)
            let client = try await daemon.connect()
            #expect(try await client.open("https://accept.test/").status == .handled)
            return info.st_mode & 0o7777
        }
        #expect(mode == 0o660)
        #expect(exit.status == 0)
        #expect(access(daemon.socketPath, F_OK) != 0)
    }

    @Test func aStaleSocketFileIsReplaced() async throws {
        let daemon = try TestDaemon.make(apps: Self.apps)
        defer { TestDirectory.remove(daemon.directory) }
        try makeStaleSocket(at: daemon.socketPath)
        let (handled, exit) = try await TestDaemonProcess.run(daemon) { _ in
            try await daemon.connect().open("https://accept.test/").status
        }
        #expect(handled == .handled)
        #expect(exit.status == 0)
    }

    @Test func aSecondDaemonOnTheSamePathRefusesToStart() async throws {
        let daemon = try TestDaemon.make(apps: Self.apps)
        defer { TestDirectory.remove(daemon.directory) }
        let (second, exit) = try await TestDaemonProcess.run(daemon) { pid in
            let second = try await TestDaemonProcess.runToCompletion(arguments: ["--config", daemon.configurationFile])
            // The first one is unharmed.
            #expect(try await daemon.connect().open("https://accept.test/").status == .handled)
            return (second, pid)
        }
        #expect(second.0.status == 1)
        #expect(second.0.standardError.contains("another appflipd is already listening on \(daemon.socketPath) (pid \(second.1)"))
        #expect(exit.status == 0)
    }

    @Test func aFileThatIsNotASocketIsNeverReplaced() async throws {
        let daemon = try TestDaemon.make(apps: Self.apps)
        defer { TestDirectory.remove(daemon.directory) }
        try TestDirectory.write("precious", to: daemon.socketPath, mode: 0o600)
        let exit = try await TestDaemonProcess.runToCompletion(arguments: ["--config", daemon.configurationFile])
        #expect(exit.status == 1)
        #expect(exit.standardError.contains("exists and is not a socket"))
    }

    @Test func sigtermLetsInFlightHandoffsFinish() async throws {
        let daemon = try TestDaemon.make(apps: Self.apps)
        defer { TestDirectory.remove(daemon.directory) }
        let (reply, exit) = try await TestDaemonProcess.run(daemon) { pid in
            let client = try await daemon.connect()
            let pending = client.send(
                .open(OpenRequest(activity: Activity(webpageURL: "https://slow.test/"), options: .init(universalLinksOnly: true)))
            )
            // Wait until the handler runs, then ask the daemon to stop while it does.
            try await waitUntil("the slow handler running") { access(daemon.directory + "/handler-1.sh.started", F_OK) == 0 }
            kill(pid, SIGTERM)
            // Once the daemon is stopping, new handoffs on open connections are refused.
            var refused: Reply?
            for _ in 0..<500 {
                let attempt = try await client.send(
                    .open(OpenRequest(activity: Activity(webpageURL: "https://accept.test/"), options: .init(universalLinksOnly: true)))
                ).get()
                if attempt.error?.code == .shuttingDown {
                    refused = attempt
                    break
                }
                try await Task.sleep(for: .milliseconds(2))
            }
            return (try await pending.get(), refused)
        }
        #expect(reply.0.error == nil)
        #expect(reply.1?.error?.code == .shuttingDown)
        #expect(exit.status == 0)
    }

    @Test func sigtermClosesWhatIsStillInFlightAfterTheGracePeriod() async throws {
        var configuration = DaemonConfiguration()
        configuration.shutdownGraceSeconds = 0.5
        let stuck = TestApp(
            appID: "T.stuck",
            domains: ["applinks:stuck.test"],
            handler: .script("touch \"$0.started\"; sleep 5", timeoutSeconds: 120)
        )
        let daemon = try TestDaemon.make(configuration: configuration, apps: [stuck])
        defer { TestDirectory.remove(daemon.directory) }
        let (outcome, exit) = try await TestDaemonProcess.run(daemon) { pid in
            let client = try await daemon.connect()
            let pending = client.send(
                .open(OpenRequest(activity: Activity(webpageURL: "https://stuck.test/"), options: .init(universalLinksOnly: true)))
            )
            try await waitUntil("the stuck handler running") { access(daemon.directory + "/handler-0.sh.started", F_OK) == 0 }
            kill(pid, SIGTERM)
            // The handler sleeps for 5 s: only a daemon that keeps its grace period closes the connection
            // before the handler could answer.
            do {
                return "replied: \(try await pending.get())"
            } catch {
                return "no reply: \(error)"
            }
        }
        #expect(outcome.hasPrefix("no reply"), "\(outcome)")
        #expect(exit.status == 0)
        #expect(exit.standardError.contains("still in flight after the grace period"))
    }

    @Test func sighupReloadsAppsAndKeepsThemWhenTheNewOnesAreInvalid() async throws {
        let daemon = try TestDaemon.make(apps: Self.apps)
        defer { TestDirectory.remove(daemon.directory) }
        let notify = try NotifySocket(path: daemon.directory + "/notify.sock")
        let (counts, exit) = try await TestDaemonProcess.run(daemon, environment: ["NOTIFY_SOCKET": notify.path]) { pid in
            let client = try await daemon.connect()
            let before = try await client.apps().count
            try TestDirectory.write(
                #"{"appID":"T.added","domains":["applinks:added.test"],"association":{"applinks":{"details":[{"appIDs":["T.added"],"components":[{"/":"*"}]}]}},"handler":{"builtin":"accept"}}"#,
                to: daemon.directory + "/apps.d/zz-added.json",
                mode: 0o644
            )
            kill(pid, SIGHUP)
            var after = before
            for _ in 0..<200 where after == before {
                try await Task.sleep(for: .milliseconds(10))
                after = try await client.apps().count
            }
            try TestDirectory.write(#"{"appID":"T.broken","typo":1}"#, to: daemon.directory + "/apps.d/zz-broken.json", mode: 0o644)
            kill(pid, SIGHUP)
            // The refused reload's own report to systemd: the apps are counted once it has finished.
            _ = try await notify.message(containing: "STATUS=Reload refused")
            let afterBroken = try await client.apps().count
            return (before, after, afterBroken, try await client.open("https://added.test/").app)
        }
        #expect(counts.0 == 2)
        #expect(counts.1 == 3)
        #expect(counts.2 == 3)
        #expect(counts.3 == "T.added")
        #expect(exit.status == 0)
        #expect(exit.standardError.contains("reload refused"))
    }

    /// SIGHUP re-reads the statement lists of the apps' hosts, as `pm verify-app-links --re-verify` would:
    /// `apps` shows the new states, and routing follows them. On Android 6–11 an app whose status becomes
    /// `always` at the reload is the one verified last, so it now opens the link; Android 12+ still open the
    /// app installed last.
    @Test func sighupReverifiesTheAppsHosts() async throws {
        let good = Array(repeating: "12", count: 32).joined(separator: ":")
        let filter = IntentFilter(autoVerify: true, schemes: ["https"], authorities: [.init(host: "partner.test")])
        @Sendable func statements(_ fingerprint: String) -> JSONValue {
            .array(
                ["com.example.a", "com.example.b"].map { package in
                    .object([
                        "relation": .array([.string("delegate_permission/common.handle_all_urls")]),
                        "target": .object([
                            "namespace": .string("android_app"),
                            "package_name": .string(package),
                            "sha256_cert_fingerprints": .array([.string(package == "com.example.a" ? fingerprint : good)]),
                        ]),
                    ])
                }
            )
        }
        let apps = ["a", "b"].map { name in
            TestApp(
                appID: "T.\(name)",
                domains: [],
                handler: .accept,
                android: AndroidIdentity(package: "com.example.\(name)", fingerprints: [good], intentFilters: [filter]),
                assetLinks: ["partner.test": statements(Array(repeating: "34", count: 32).joined(separator: ":"))]
            )
        }
        var configuration = DaemonConfiguration()
        configuration.android.generation = .android11AndEarlier
        let daemon = try TestDaemon.make(configuration: configuration, apps: apps)
        defer { TestDirectory.remove(daemon.directory) }
        let url = "https://partner.test/"
        let (outcome, exit) = try await TestDaemonProcess.run(daemon) { pid in
            let client = try await daemon.connect()
            func state() async throws -> String? {
                try await client.apps().first { $0.appID == "T.a" }?.domainVerification.map { "\($0.status ?? "-") \($0.hosts.map(\.state))" }
            }
            func open() async throws -> String? {
                try await client.open(OpenRequest(activity: Activity(webpageURL: url), options: OpenOptions(platform: .android))).app
            }
            let before = (try await state(), try await open())
            // T.a's list now names its key: the file the app file names, rewritten in place.
            let list = String(decoding: try JSONEncoder.protocolEncoder.encode(statements(good)), as: UTF8.self)
            try TestDirectory.write(list, to: daemon.directory + "/app-100-partner.test.assetlinks.json", mode: 0o644)
            kill(pid, SIGHUP)
            var after = before.0
            for _ in 0..<200 where after == before.0 {
                try await Task.sleep(for: .milliseconds(10))
                after = try await state()
            }
            let otherwise = try await client.explain(url).android?.otherwise?.first { $0.generation == 12 && $0.verifier == "google" }
            return (before, after, try await open(), otherwise?.apps)
        }
        #expect(outcome.0.0 == #"ask ["1024"]"#)
        #expect(outcome.0.1 == "T.b")
        #expect(outcome.1 == #"always ["verified"]"#)
        #expect(outcome.2 == "T.a")
        #expect(outcome.3 == ["T.b"])
        #expect(exit.status == 0)
    }

    @Test func theFirstLogLineNamesTheRelease() async throws {
        let daemon = try TestDaemon.make(apps: Self.apps)
        defer { TestDirectory.remove(daemon.directory) }
        let exit = try await TestDaemonProcess.runToCompletion(arguments: ["--config", daemon.configurationFile, "--check"])
        #expect(exit.status == 0)
        let firstLine = exit.standardError.split(separator: "\n").first.map(String.init) ?? ""
        #expect(firstLine.contains("appflipd \(ReleaseVersion.current) starting"), "first line: \(firstLine)")
    }

    @Test func anInvalidConfigurationIsRefusedAtStartWithTheFieldNamed() async throws {
        let directory = try TestDirectory.make()
        defer { TestDirectory.remove(directory) }
        try TestDirectory.write(#"{"maxLineBytes": 10}"#, to: directory + "/small.json", mode: 0o644)
        let small = try await TestDaemonProcess.runToCompletion(arguments: ["--config", directory + "/small.json", "--check"])
        #expect(small.status == 1)
        #expect(small.standardError.contains("`maxLineBytes`: must be between 1024"))
        try TestDirectory.write(#"{"maxLineByte": 2048}"#, to: directory + "/typo.json", mode: 0o644)
        let typo = try await TestDaemonProcess.runToCompletion(arguments: ["--config", directory + "/typo.json", "--check"])
        #expect(typo.status == 1)
        #expect(typo.standardError.contains("`maxLineByte`: unknown key"))
    }

    @Test(arguments: [1, 3])
    func servesOnAsManyEventLoopsAsConfigured(count: Int) async throws {
        var configuration = DaemonConfiguration()
        configuration.eventLoops = count
        let daemon = try TestDaemon.make(configuration: configuration, apps: Self.apps)
        defer { TestDirectory.remove(daemon.directory) }
        let (served, exit) = try await TestDaemonProcess.run(daemon) { pid in
            (try await daemon.connect().open("https://accept.test/").status, eventLoopThreads(of: pid))
        }
        #expect(served.0 == .handled)
        #expect(served.1 == count)
        #expect(exit.status == 0)
    }

    /// How many of `pid`'s threads are event loops of a `MultiThreadedEventLoopGroup` (NIO names them
    /// `NIO-ELT-GROUP-#N`).
    private func eventLoopThreads(of pid: Int32) -> Int {
        guard let tasks = opendir("/proc/\(pid)/task") else { return -1 }
        defer { closedir(tasks) }
        var count = 0
        while let entry = readdir(tasks) {
            let tid = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard tid.first?.isNumber == true, let file = fopen("/proc/\(pid)/task/\(tid)/comm", "r") else { continue }
            var name = [CChar](repeating: 0, count: 32)
            if fgets(&name, Int32(name.count), file) != nil,
                String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self).hasPrefix("NIO-ELT-")
            {
                count += 1
            }
            fclose(file)
        }
        return count
    }

    /// Binds a socket at `path` and closes it without removing the file, as a crashed daemon leaves it.
    private func makeStaleSocket(at path: String) throws {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: path.utf8) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        close(fd)
        #expect(bound == 0)
    }
}
