// systemd-probe: the smallest socket-activated service that exercises every part of the Systemd module
// under a real systemd, for scripts/systemd-e2e.sh. It adopts the listening socket named `appflipd`,
// answers each request line with one JSON line, logs structured fields (including a `code` that must
// arrive redacted), pings the watchdog only while its serving queue answers, reloads on SIGHUP (a
// configuration file that starts with "broken" fails the reload and keeps the previous generation) and
// says STOPPING=1 on SIGTERM. With PROBE_HTTP_PORT set it also answers HTTP on 127.0.0.1:PORT, as the
// embedded OAuth2 server does inside appflipd's private network namespace.
//
//     systemd-probe [--config DIR[/appflipd.json]]   (reads DIR/probe.conf; the same ExecStart= as appflipd)
import AppFlipFraming
import Dispatch
import Glibc
import Logging
import NIOCore
import Systemd

LoggingSystem.bootstrap { label in JournalLogHandler(label: label, fieldPrefix: "APPFLIP_") }
let logger = Logger(label: "systemd-probe")
let notifier = SystemdNotifier()
/// `--config DIR/appflipd.json` (appflipd's ExecStart=) or `--config DIR`: the probe reads DIR/probe.conf.
let configPath = CommandLine.arguments.firstIndex(of: "--config").flatMap { index -> String? in
    guard index + 1 < CommandLine.arguments.count else { return nil }
    let argument = CommandLine.arguments[index + 1]
    let directory = argument.hasSuffix(".json") ? String(argument[..<(argument.lastIndex(of: "/") ?? argument.startIndex)]) : argument
    return directory + "/probe.conf"
}
/// Serves connections one at a time; the watchdog's liveness probe runs a no-op on it.
let servingQueue = DispatchQueue(label: "systemd-probe.serving")

/// The configuration generation, read and written on `servingQueue` only.
nonisolated(unsafe) var generation = 0

/// Reads the configuration file: the whole file is the configuration; "broken…" is a parse error.
func loadConfiguration() throws -> Int {
    guard let configPath, let file = fopen(configPath, "r") else { return generation + 1 }
    defer { fclose(file) }
    var buffer = [CChar](repeating: 0, count: 256)
    let text =
        fgets(&buffer, Int32(buffer.count), file) == nil
        ? "" : String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    if text.hasPrefix("broken") {
        throw BrokenConfiguration(reason: "\(configPath): line 1: not a configuration")
    }
    return generation + 1
}

func writeAll(_ fd: Int32, _ text: String) {
    var text = text
    text.withUTF8 { bytes in
        var offset = 0
        while offset < bytes.count {
            let written = write(fd, bytes.baseAddress! + offset, bytes.count - offset)
            if written <= 0 { return }
            offset += written
        }
    }
}

func peerCredentials(_ fd: Int32) -> PeerCredentials {
    var credentials = PeerCredentials()
    var length = socklen_t(MemoryLayout<PeerCredentials>.size)
    getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &length)
    return credentials
}

/// Answers every line of one connection until the peer closes it.
func serve(_ connection: Int32) {
    defer { close(connection) }
    let peer = peerCredentials(connection)
    var buffer = [UInt8](repeating: 0, count: 4096)
    // Protocol v1's own framing, as appflipd reads the same socket: a line over the limit ends the connection.
    var lines = LineReader(LineFrameDecoder(maxLineBytes: 65_536, unterminatedLastLine: .drop))
    var requests = 0
    while true {
        let count = read(connection, &buffer, buffer.count)
        guard count > 0 else { return }
        do {
            try lines.read(ByteBuffer(bytes: buffer[..<count])) { line in
                requests += 1
                let handoffID = "probe-\(getpid())-\(requests)"
                logger.notice(
                    "answered a probe request https://oauth-redirect.googleusercontent.com/a/com.google.OPA?code=PROBE-SECRET-CODE&state=s1",
                    metadata: [
                        "handoff-id": "\(handoffID)",
                        "peer": ["uid": "\(peer.uid)", "pid": "\(peer.pid)"],
                        "code": "PROBE-SECRET-CODE",
                        "request-bytes": "\(line.readableBytes)",
                        "generation": "\(generation)",
                    ]
                )
                writeAll(connection, #"{"op":"probe","id":"\#(handoffID)","pid":\#(getpid()),"generation":\#(generation)}"# + "\n")
            }
        } catch {
            return
        }
    }
}

/// Binds 127.0.0.1:`port` and answers every connection with a fixed HTTP response.
func serveLoopbackHTTP(port: UInt16) {
    let server = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    var reuse: Int32 = 1
    setsockopt(server, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
    let bound = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(server, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    guard bound == 0, listen(server, 64) == 0 else {
        logger.critical("cannot listen on 127.0.0.1", metadata: ["port": "\(port)", "errno": "\(errno)"])
        exit(1)
    }
    DispatchQueue.global().async {
        while true {
            let connection = accept(server, nil, nil)
            if connection < 0 { continue }
            var buffer = [UInt8](repeating: 0, count: 4096)
            _ = read(connection, &buffer, buffer.count)
            writeAll(connection, "HTTP/1.1 200 OK\r\nContent-Length: 15\r\nConnection: close\r\n\r\nsystemd-probe\r\n")
            close(connection)
        }
    }
}

/// SIGHUP, on `servingQueue`. A plain function, not a closure written in top-level code: such a closure
/// would be main-actor isolated and trap when the signal source runs it on another queue.
func reloadConfiguration() {
    _ = try? notifier.notify(.reloadingNow())
    do {
        generation = try loadConfiguration()
        _ = try? notifier.notify(.ready, .status("Serving configuration generation \(generation)"))
        logger.notice("reloaded", metadata: ["generation": "\(generation)"])
    } catch {
        _ = try? notifier.notify(.ready, .status("Reload failed, still serving generation \(generation): \(error)"))
        logger.error("reload failed; the previous configuration stays in service", error: error)
    }
}

/// SIGTERM: nothing is in flight between requests here, so stopping is immediate.
func stop() {
    _ = try? notifier.notify(.stopping)
    logger.notice("stopping")
    exit(0)
}

// The listener: the socket systemd passed, by name.
let listener: Int32
do {
    guard let adopted = try SocketActivation.listeningUnixStreamSocket(named: "appflipd", in: SocketActivation.takeSockets()) else {
        logger.critical("no socket named appflipd was passed; start appflipd.socket")
        exit(1)
    }
    listener = adopted
} catch {
    logger.critical("cannot adopt the activated socket", error: error)
    exit(1)
}

signal(SIGHUP, SIG_IGN)
signal(SIGTERM, SIG_IGN)
let reloadSignal = DispatchSource.makeSignalSource(signal: SIGHUP, queue: servingQueue)
reloadSignal.setEventHandler(handler: reloadConfiguration)
reloadSignal.resume()
let stopSignal = DispatchSource.makeSignalSource(signal: SIGTERM, queue: .main)
stopSignal.setEventHandler(handler: stop)
stopSignal.resume()

servingQueue.sync { generation = (try? loadConfiguration()) ?? 1 }
if let watchdog = SystemdWatchdog(notifier: notifier) {
    Task {
        try await watchdog.run(isAlive: {
            await withCheckedContinuation { answered in servingQueue.async { answered.resume(returning: true) } }
        })
    }
}
DispatchQueue.global().async {
    while true {
        let connection = accept(listener, nil, nil)
        if connection < 0 { continue }
        servingQueue.async { serve(connection) }
    }
}
if let port = getenv("PROBE_HTTP_PORT").flatMap({ UInt16(String(cString: $0)) }) {
    serveLoopbackHTTP(port: port)
}
_ = try? notifier.notify(.ready, .status("Serving configuration generation \(generation)"))
logger.notice("ready", metadata: ["activated-fd": "\(listener)"])
dispatchMain()

struct BrokenConfiguration: Error, CustomStringConvertible {
    let reason: String
    var description: String { reason }
}

/// Linux's `struct ucred`, which Glibc's Swift module hides behind _GNU_SOURCE.
struct PeerCredentials {
    var pid: Int32 = 0
    var uid: UInt32 = 0
    var gid: UInt32 = 0
}
