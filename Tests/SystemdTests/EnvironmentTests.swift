import Glibc
import Testing

@testable import Systemd

/// Tests that set the process environment systemd would set, against real sockets. Serialized, because
/// the environment is process-wide.
@Suite(.serialized) struct EnvironmentTests {
    /// A real AF_UNIX datagram socket standing in for systemd's notification socket.
    final class NotificationSocket {
        let path: String
        let fileDescriptor: Int32

        init() throws {
            var template = Array("/tmp/systemd-tests-XXXXXX".utf8CString)
            guard mkdtemp(&template) != nil else { throw SystemdError(function: "mkdtemp", result: -errno) }
            path = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self) + "/notify"
            fileDescriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            withUnsafeMutableBytes(of: &address.sun_path) { bytes in
                for (index, byte) in path.utf8.enumerated() { bytes[index] = byte }
            }
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(fileDescriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
                }
            }
            guard bound == 0 else { throw SystemdError(function: "bind", result: -errno) }
        }

        /// Every datagram received so far.
        func messages() -> [String] {
            var messages: [String] = []
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = recv(fileDescriptor, &buffer, buffer.count, 0)
                guard count > 0 else { return messages }
                messages.append(String(decoding: buffer[..<count], as: UTF8.self))
            }
        }

        deinit {
            close(fileDescriptor)
            unlink(path)
            rmdir(String(path.dropLast("/notify".count)))
        }
    }

    @Test func notifierIsANoOpOutsideSystemd() throws {
        unsetenv("NOTIFY_SOCKET")
        let notifier = SystemdNotifier()
        #expect(!notifier.isActive)
        #expect(try notifier.notify(.ready) == false)
    }

    @Test func notifierSendsOneDatagramAndKeepsTheEnvironment() throws {
        let socket = try NotificationSocket()
        setenv("NOTIFY_SOCKET", socket.path, 1)
        defer { unsetenv("NOTIFY_SOCKET") }
        let notifier = SystemdNotifier()
        #expect(try notifier.notify(.ready, .status("Serving 2 apps")) == true)
        #expect(try notifier.notify(.watchdog) == true)
        #expect(socket.messages() == ["READY=1\nSTATUS=Serving 2 apps", "WATCHDOG=1"])
        #expect(notifier.isActive)
    }

    struct BrokenConfig: Error {}

    @Test func reloadSendsReadyAfterSuccessAndAfterFailure() async throws {
        let socket = try NotificationSocket()
        setenv("NOTIFY_SOCKET", socket.path, 1)
        defer { unsetenv("NOTIFY_SOCKET") }
        let notifier = SystemdNotifier()
        let apps = try await notifier.reload({ 3 }, status: { "Serving \($0) apps" }, failureStatus: { "\($0)" })
        #expect(apps == 3)
        await #expect(throws: BrokenConfig.self) {
            try await notifier.reload(
                { () async throws -> Int in throw BrokenConfig() },
                status: { "Serving \($0) apps" },
                failureStatus: { _ in "Reload failed; still serving 3 apps" }
            )
        }
        let messages = socket.messages()
        #expect(messages.count == 4)
        #expect(messages[0].hasPrefix("RELOADING=1\nMONOTONIC_USEC="))
        #expect(messages[1] == "READY=1\nSTATUS=Serving 3 apps")
        #expect(messages[2].hasPrefix("RELOADING=1\nMONOTONIC_USEC="))
        #expect(messages[3] == "READY=1\nSTATUS=Reload failed; still serving 3 apps")
    }

    @Test func watchdogReadsSystemdsInterval() {
        setenv("WATCHDOG_USEC", "3000000", 1)
        setenv("WATCHDOG_PID", "\(getpid())", 1)
        defer {
            unsetenv("WATCHDOG_USEC")
            unsetenv("WATCHDOG_PID")
        }
        let watchdog = SystemdWatchdog()
        #expect(watchdog?.timeout == .seconds(3))
        #expect(watchdog?.pingInterval == .milliseconds(1500))

        setenv("WATCHDOG_PID", "\(getpid() + 1)", 1)
        #expect(SystemdWatchdog() == nil, "a watchdog meant for another process")
    }

    @Test func watchdogIsOffOutsideSystemd() {
        unsetenv("WATCHDOG_USEC")
        #expect(SystemdWatchdog() == nil)
    }

    /// Answers a scripted sequence, then reports that it ran out.
    actor ScriptedProbe {
        var answers: [Bool]
        var ranOut = false
        var waiter: CheckedContinuation<Void, Never>?

        init(_ answers: [Bool]) { self.answers = answers }

        func answer() -> Bool {
            guard answers.isEmpty else { return answers.removeFirst() }
            ranOut = true
            waiter?.resume()
            waiter = nil
            return false
        }

        func waitUntilExhausted() async {
            if ranOut { return }
            await withCheckedContinuation { waiter = $0 }
        }
    }

    @Test func watchdogPingsOnlyAfterTheProbeAnswersAlive() async throws {
        let socket = try NotificationSocket()
        setenv("NOTIFY_SOCKET", socket.path, 1)
        defer { unsetenv("NOTIFY_SOCKET") }
        let probe = ScriptedProbe([false, true, false, false, true, true])
        let watchdog = SystemdWatchdog(timeout: .milliseconds(2), notifier: SystemdNotifier())
        let pinger = Task { try await watchdog.run(isAlive: { await probe.answer() }) }
        await probe.waitUntilExhausted()
        pinger.cancel()
        await #expect(throws: CancellationError.self) { try await pinger.value }
        #expect(socket.messages() == ["WATCHDOG=1", "WATCHDOG=1", "WATCHDOG=1"])
    }

    @Test func outsideSocketActivationThereAreNoSockets() throws {
        unsetenv("LISTEN_PID")
        unsetenv("LISTEN_FDS")
        #expect(try SocketActivation.takeSockets() == [])
    }

    @Test func adoptsOnlyAListeningUnixStreamSocket() throws {
        let listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        let datagram = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        let unlistened = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer { [listener, datagram, unlistened].forEach { _ = close($0) } }
        // Autobind (an address of the family alone) gives an abstract name: nothing on disk.
        var family = sa_family_t(AF_UNIX)
        let bound = withUnsafePointer(to: &family) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, socklen_t(MemoryLayout<sa_family_t>.size))
            }
        }
        #expect(bound == 0)
        #expect(listen(listener, 8) == 0)
        let sockets = [
            ActivatedSocket(name: "appflipd", fileDescriptor: listener),
            ActivatedSocket(name: "metrics", fileDescriptor: datagram),
            ActivatedSocket(name: "idle", fileDescriptor: unlistened),
        ]
        #expect(try SocketActivation.listeningUnixStreamSocket(named: "appflipd", in: sockets) == listener)
        #expect(try SocketActivation.listeningUnixStreamSocket(named: "absent", in: sockets) == nil)
        #expect(throws: SocketActivationError.notAListeningUnixStreamSocket(name: "metrics", fileDescriptor: datagram)) {
            try SocketActivation.listeningUnixStreamSocket(named: "metrics", in: sockets)
        }
        #expect(throws: SocketActivationError.self) {
            try SocketActivation.listeningUnixStreamSocket(named: "idle", in: sockets)
        }
    }
}
