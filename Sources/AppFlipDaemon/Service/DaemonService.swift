public import AppFlipConfiguration
public import AppFlipProtocol
import Glibc
public import Logging
import NIOConcurrencyHelpers
public import NIOCore
public import NIOPosix
public import ServiceLifecycle

/// appflipd as a swift-service-lifecycle `Service`: it serves protocol v1 on a Unix socket until graceful
/// shutdown, then stops accepting, lets in-flight handoffs finish within `shutdownGraceSeconds`, closes every
/// connection behind the replies it holds and removes its socket file.
public final class DaemonService: Service, Sendable {
    private let configuration: DaemonConfiguration
    private let configurationFile: String?
    private let listener: ListenerSource
    private let factories: [any HandlerFactory]
    private let group: any EventLoopGroup
    private let logger: Logger
    private let onReady: @Sendable (ListeningAddress) -> Void
    private let context: DaemonContext
    private let connections = NIOLockedValueBox<[ObjectIdentifier: any Channel]>([:])
    private let limits: ConnectionLimits
    /// The app files read at init, for ``run()`` to read their artifacts before it listens.
    private let entries: [StaticAppLoader.Entry]

    /// Where the daemon ended up listening, handed to `onReady`.
    public struct ListeningAddress: Sendable {
        /// The socket path, when the daemon bound one (not for an inherited file descriptor).
        public var path: String?
        /// How many static apps the daemon serves.
        public var staticApps: Int
    }

    /// Reads the app files now, so that a bad configuration fails before anything listens; the artifacts they
    /// name are read by ``run()`` before it listens, and an app whose artifact fails is refused alone.
    ///
    /// - Parameters:
    ///   - configurationFile: the file ``reload()`` re-reads; `nil` for a configuration built in code.
    ///   - handoffLog: where each hop's record goes; `nil` for an info line through `logger`.
    ///   - onReady: called once the socket accepts connections (systemd's `READY=1` goes here).
    public init(
        configuration: DaemonConfiguration,
        configurationFile: String? = nil,
        listener: ListenerSource,
        handlerFactories: [any HandlerFactory] = BuiltinHandlerFactories.all,
        eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
        logger: Logger,
        handoffLog: (any HandoffLog)? = nil,
        onReady: @escaping @Sendable (ListeningAddress) -> Void = { _ in }
    ) throws(ConfigurationError) {
        try configuration.validate(file: configurationFile ?? "configuration")
        self.configuration = configuration
        self.configurationFile = configurationFile
        self.listener = listener
        self.factories = handlerFactories
        self.group = eventLoopGroup
        self.logger = logger
        self.onReady = onReady
        let entries = try StaticAppLoader(configuration: configuration, factories: handlerFactories).read()
        self.entries = entries
        self.context = DaemonContext(configuration: configuration, staticApps: entries.compactMap(\.ready), logger: logger, handoffLog: handoffLog)
        self.limits = ConnectionLimits(configuration)
    }

    /// Re-reads the configuration file, the apps directory, the artifacts and the statement lists the app files
    /// name (as `pm verify-app-links --re-verify` verifies an app's hosts again), and swaps in the new static apps
    /// and claim policy at once. On an error in the configuration or an app file the old ones stay and the error
    /// is thrown; an app file whose artifact fails is refused alone. The socket, limits and timeouts take effect
    /// at the next start.
    ///
    /// - Returns: how many static apps the new configuration serves.
    @discardableResult
    public func reload() async throws(ConfigurationError) -> Int {
        var configuration = self.configuration
        if let configurationFile {
            configuration = try DaemonConfiguration.load(from: configurationFile)
        }
        let loader = StaticAppLoader(configuration: configuration, factories: factories)
        let loaded = try await loader.load(inspector: ArtifactInspector(configuration: configuration))
        install(loaded)
        context.claimPolicy = configuration.claimPolicy
        logger.notice("configuration reloaded", metadata: ["static_apps": "\(loaded.apps.count)", "refused_apps": "\(loaded.refused.count)"])
        return loaded.apps.count
    }

    /// Reads the artifacts the app files read at init name, without serving them: `appflipd --check`.
    /// - Returns: the app files refused.
    public func checkArtifacts() async -> [RefusedApp] {
        guard entries.contains(where: { $0.ready == nil }) else { return [] }
        let loader = StaticAppLoader(configuration: configuration, factories: factories)
        return await loader.load(entries, inspector: ArtifactInspector(configuration: configuration)).refused
    }

    /// Serves `loaded`, and logs each app file refused.
    private func install(_ loaded: StaticAppLoader.Loaded) {
        context.registry.replaceStaticApps(loaded.apps, refused: loaded.refused)
        for refused in loaded.refused {
            let error = ConfigurationError(file: refused.source, field: refused.field, refused.message)
            logger.error("app file refused; the other apps are served: \(error)")
        }
    }

    /// Listens and serves until graceful shutdown; then stops accepting, lets in-flight handoffs finish within
    /// ``DaemonConfiguration/shutdownGraceSeconds``, and removes the socket file it created.
    public func run() async throws {
        // A handler that exits without reading its stdin must not kill the daemon with SIGPIPE.
        signal(SIGPIPE, SIG_IGN)
        if entries.contains(where: { $0.ready == nil }) {
            let loader = StaticAppLoader(configuration: configuration, factories: factories)
            install(await loader.load(entries, inspector: ArtifactInspector(configuration: configuration)))
        }
        let (server, published) = try await bind()
        let path: String? = if case .path(let path) = listener { path } else { nil }
        // Static apps only: a live app may already have registered on a connection accepted meanwhile.
        let staticApps = context.registry.staticAppCount
        logger.notice("listening", metadata: ["socket": "\(path ?? "inherited file descriptor")", "static_apps": "\(staticApps)"])
        onReady(ListeningAddress(path: path, staticApps: staticApps))

        // A future's `get()` ignores cancellation: without the cancellation handler, a group that is cancelled
        // instead of stopped gracefully (a test past its time limit) would wait for this service forever.
        await withTaskCancellationOrGracefulShutdownHandler {
            try? await server.closeFuture.get()
        } onCancelOrGracefulShutdown: { [context] in
            context.inFlight.stopAccepting()
            server.close(promise: nil)
        }
        await drain()
        if let path, let published { SocketFile.remove(path, inode: published) }
        logger.notice("stopped")
    }

    /// How many top-level handoffs are in flight now.
    public var handoffsInFlight: Int { context.inFlight.count }

    /// Waits for in-flight handoffs up to the grace period, then closes every connection; cancelled, it
    /// does not wait.
    private func drain() async {
        guard !Task.isCancelled else {
            logger.warning("cancelled instead of stopped gracefully; closing every connection", metadata: ["in_flight": "\(handoffsInFlight)"])
            await closeConnections(by: .now())
            return
        }
        let grace = configuration.shutdownGraceSeconds
        let graceEnds = NIODeadline.now() + .nanoseconds(Int64(grace * 1_000_000_000))
        let drained = context.inFlight.drain(on: group.next())
        // A race that returns at the first of the two: a task awaiting the future would hold a task group
        // open until the last handoff ends (a future is not cancelled), whatever the grace period says.
        let (outcome, report) = AsyncStream.makeStream(of: Bool.self)
        drained.whenComplete { _ in report.yield(true) }
        let timer = Task {
            try? await Task.sleep(for: .milliseconds(Int64(grace * 1000)))
            report.yield(false)
        }
        let finished = await outcome.first { _ in true } ?? false
        timer.cancel()
        report.finish()
        if !finished {
            logger.warning("handoffs still in flight after the grace period; closing their connections", metadata: ["grace_s": "\(grace)"])
        }
        await closeConnections(by: graceEnds)
    }

    /// Has every connection write the lines it holds and close behind them (``DaemonStopping``): a reply
    /// queued, or an acknowledgement held back, is not lost to the close. A connection whose lines are not
    /// written by `deadline` (its peer does not read) is closed then.
    private func closeConnections(by deadline: NIODeadline) async {
        let open = connections.withLockedValue { Array($0.values) }
        for channel in open {
            channel.eventLoop.execute {
                channel.pipeline.syncOperations.fireUserInboundEventTriggered(DaemonStopping())
                let forced = channel.eventLoop.scheduleTask(deadline: deadline) { channel.close(promise: nil) }
                channel.closeFuture.whenComplete { _ in forced.cancel() }
            }
        }
        for channel in open { try? await channel.closeFuture.get() }
    }

    private func bind() async throws -> (any Channel, publishedInode: UInt64?) {
        let context = self.context
        let connections = self.connections
        let limits = self.limits
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: Int32(configuration.listenBacklog))
            // A client that shuts down its write side still gets every reply (`printf … | socat`).
            .childChannelOption(.allowRemoteHalfClosure, value: true)
            // Past 64 KiB of unwritten lines a connection is not writable: a live app then gets no new pushes
            // (its handoffs fail fast) and a watcher no events, so a peer that does not read costs a bounded
            // amount of memory. It is writable again under 32 KiB. (NIO's defaults, made explicit.)
            .childChannelOption(.writeBufferWaterMark, value: .init(low: 32 << 10, high: 64 << 10))
            .childChannelInitializer { channel in
                channel.peerCredentials().flatMapThrowing { peer in
                    let uid = peer.map { String($0.uid) } ?? "-"
                    let pid = peer.map { String($0.pid) } ?? "-"
                    if let refusal = limits.admit(uid: peer?.uid) {
                        context.logger.info(
                            "connection refused",
                            metadata: ["peer_uid": "\(uid)", "peer_pid": "\(pid)", "reason": "\(refusal.message)"]
                        )
                        OutboundLines(channel: channel).close(after: .reply(Reply(id: nil, op: nil, error: refusal)))
                        return
                    }
                    connections.withLockedValue { $0[ObjectIdentifier(channel)] = channel }
                    channel.closeFuture.whenComplete { _ in
                        _ = connections.withLockedValue { $0.removeValue(forKey: ObjectIdentifier(channel)) }
                        limits.release(uid: peer?.uid)
                    }
                    context.logger.debug("connection", metadata: ["peer_uid": "\(uid)", "peer_pid": "\(pid)"])
                    try channel.pipeline.syncOperations.addHandler(ConnectionHandler(daemon: context, peer: peer, channel: channel))
                }
            }
        switch listener {
        case .fileDescriptor(let descriptor):
            let channel = try await bootstrap.withBoundSocket(descriptor).get()
            // NIO adopts the socket with listen(fd, 128) before any option applies; a second listen()
            // sets the configured backlog, which must equal the `.socket` unit's `Backlog=`.
            if listen(descriptor, Int32(configuration.listenBacklog)) != 0 {
                let error = POSIXErrorDescription(errno: errno)
                try? await channel.close()
                throw error
            }
            return (channel, nil)
        case .path(let path):
            try SocketFile.prepare(path)
            let temporary = try SocketFile.temporaryPath(for: path)
            unlink(temporary)
            let channel = try await bootstrap.bind(unixDomainSocketPath: temporary).get()
            do {
                return (channel, try SocketFile.publish(temporary: temporary, at: path))
            } catch {
                try? await channel.close()
                throw error
            }
        }
    }
}

/// Where the daemon's listening socket comes from.
public enum ListenerSource: Sendable, Hashable {
    /// Bind a Unix socket at this path: mode 0660 whatever the umask, a stale socket file replaced only
    /// when nothing answers on it, and a refusal when another daemon does.
    case path(String)
    /// Serve on an already bound and listening Unix socket, such as one systemd passes in (socket
    /// activation). The daemon neither creates nor removes its file.
    case fileDescriptor(Int32)
}
