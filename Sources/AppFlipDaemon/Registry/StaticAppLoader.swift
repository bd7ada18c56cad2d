import AppFlipConfiguration
import AppFlipCore
import AppFlipProtocol
import FoundationEssentials
import Glibc

/// Loads `apps.d/*.json`, one static app per file, in file-name order, in two steps: ``read()`` reads every
/// file, and ``load(_:inspector:)`` reads the artifacts some of them name (``ArtifactInspector``).
///
/// Reading is all or nothing: one bad file refuses the set, so that a reload keeps the previous apps. An app
/// file that names an artifact is refused alone for what its artifact decides (it cannot be read, it disagrees
/// with the file, its package is another app's): an artifact is rebuilt outside the configuration, and one
/// that is being rebuilt must not take the other apps down with it.
struct StaticAppLoader {
    /// One app file.
    private struct AppFile: Decodable {
        var appID: String
        var domains: [String]
        /// An inline apple-app-site-association document.
        var association: JSONValue?
        /// A path to an apple-app-site-association file, relative to the app file.
        var associationFile: String?
        var handler: [String: JSONValue]
        var priority: Int?
        /// A build artifact `appflip app inspect` reads, relative to the app file: the app's Android identity, or
        /// its iOS domains.
        var artifact: String?
        /// The `android` object as written.
        var androidFile: AndroidIdentityFile?
        /// The app's whole Android identity, written by hand, for an app file without an artifact.
        var android: AndroidIdentity?

        private enum CodingKeys: String, CodingKey, CaseIterable {
            case appID, domains, association, associationFile, handler, priority, android, artifact
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.strictContainer(keyedBy: CodingKeys.self)
            appID = try container.decode(String.self, forKey: .appID)
            artifact = try container.decodeIfPresent(String.self, forKey: .artifact)
            androidFile = try container.decodeIfPresent(AndroidIdentityFile.self, forKey: .android)
            if artifact == nil { android = try container.decodeIfPresent(AndroidIdentity.self, forKey: .android) }
            if androidFile == nil, artifact == nil {
                domains = try container.decode([String].self, forKey: .domains)
            } else {
                domains = try container.decodeIfPresent([String].self, forKey: .domains) ?? []
            }
            association = try container.decodeIfPresent(JSONValue.self, forKey: .association)
            associationFile = try container.decodeIfPresent(String.self, forKey: .associationFile)
            handler = try container.decode([String: JSONValue].self, forKey: .handler)
            priority = try container.decodeIntegerIfPresent(forKey: .priority)
        }
    }

    /// An app file read: ready, or waiting for its artifact.
    enum Entry: Sendable {
        case ready(RegisteredApp)
        case pending(Pending)

        var ready: RegisteredApp? {
            if case .ready(let app) = self { return app }
            return nil
        }
    }

    /// An app file that names an artifact, read but for what the artifact declares.
    struct Pending: Sendable {
        let file: String
        let directory: String
        /// The artifact, resolved against the app file's directory.
        let artifact: String
        let declared: AndroidIdentityFile?
        /// The app file's apple-app-site-association, which routes the domains an iOS artifact claims.
        let association: [UInt8]?
        let priority: Int
        /// The app without what its artifact declares: no Android identity, and no route unless the file gives
        /// its domains.
        let app: RegisteredApp
    }

    /// The static apps loaded, and the app files refused alone.
    struct Loaded: Sendable {
        var apps: [RegisteredApp]
        var refused: [RefusedApp]
    }

    var configuration: DaemonConfiguration
    var factories: [any HandlerFactory]

    /// Reads every app file; an app file that names an artifact waits for ``load(_:inspector:)``.
    func read() throws(ConfigurationError) -> [Entry] {
        guard let directory = configuration.appsDirectory else { return [] }
        let names: [String]
        do {
            names = try Self.jsonFiles(in: directory)
        } catch {
            throw ConfigurationError(file: directory, "cannot list the apps directory: \(error)")
        }
        var entries: [Entry] = []
        var appIDs: [String: String] = [:]
        for name in names {
            let file = directory + "/" + name
            let entry = try readApp(file: file)
            let app: RegisteredApp
            switch entry {
            case .ready(let ready): app = ready
            case .pending(let pending): app = pending.app
            }
            if let other = appIDs[app.appID] {
                throw ConfigurationError(file: file, field: "appID", "\(app.appID) is already declared in \(other)")
            }
            appIDs[app.appID] = file
            if let package = app.android?.package, let other = entries.compactMap(\.ready).first(where: { $0.android?.package == package }),
                case .configured(let otherFile) = other.origin
            {
                throw ConfigurationError(file: file, field: "android.package", "\(package) is already the package of \(other.appID) in \(otherFile)")
            }
            entries.append(entry)
        }
        return entries
    }

    /// Reads the artifacts `entries` name, in file order, and finishes their apps; an app whose artifact cannot
    /// be routed by is refused alone.
    func load(_ entries: [Entry], inspector: ArtifactInspector) async -> Loaded {
        var loaded = Loaded(apps: [], refused: [])
        // A package an artifact declares is refused when any other app file is that package, before or after it.
        var others = entries.compactMap(\.ready)
        for entry in entries {
            switch entry {
            case .ready(let app):
                loaded.apps.append(app)
            case .pending(let pending):
                do {
                    let app = try await finish(pending, inspector: inspector, others: others)
                    loaded.apps.append(app)
                    others.append(app)
                } catch {
                    loaded.refused.append(RefusedApp(source: pending.file, field: error.field, message: error.message))
                }
            }
        }
        return loaded
    }

    /// Every app file read and every artifact with it.
    func load(inspector: ArtifactInspector) async throws(ConfigurationError) -> Loaded {
        await load(try read(), inspector: inspector)
    }

    private func finish(_ pending: Pending, inspector: ArtifactInspector, others: [RegisteredApp]) async throws(ConfigurationError) -> RegisteredApp {
        let report: ArtifactInspector.Report
        do {
            report = try await inspector.inspect(pending.artifact)
        } catch {
            throw ConfigurationError(field: "artifact", error.message)
        }
        if report.platform == "ios" { return try finishIOS(pending, report: report) }
        if pending.association != nil, pending.app.route == nil {
            throw ConfigurationError(
                field: "association",
                "routes no domain: \(pending.artifact) is an Android artifact, which claims no iOS domains; write `domains` beside it, or leave the association out"
            )
        }
        let identity = try ArtifactIdentityRules.identity(report, artifact: pending.artifact, declared: pending.declared)
        if let other = others.first(where: { $0.android?.package == identity.package }), case .configured(let otherFile) = other.origin {
            throw ConfigurationError(
                field: "artifact",
                "\(pending.artifact) is \(identity.package), already the package of \(other.appID) in \(otherFile)"
            )
        }
        var app = pending.app
        app.android = identity
        app.artifact = AppArtifact(file: pending.artifact, kind: report.kind)
        app.appLinks = try appLinks(of: identity, assetLinks: pending.declared?.assetLinks ?? [:], directory: pending.directory)
        return app
    }

    /// An app file whose artifact is an iOS one: its domains are the artifact's, routed by the file's association.
    private func finishIOS(_ pending: Pending, report: ArtifactInspector.Report) throws(ConfigurationError) -> RegisteredApp {
        var app = pending.app
        guard pending.declared == nil else {
            throw ConfigurationError(
                field: "android",
                "\(pending.artifact) is an iOS artifact (\(report.kind)): give the app's Android identity its own app file or artifact"
            )
        }
        let domains = try ArtifactIdentityRules.domains(report, artifact: pending.artifact, appID: app.appID, declared: app.domains)
        guard let association = pending.association else {
            throw ConfigurationError(
                field: "association",
                "is required with an iOS artifact: the apple-app-site-association that routes the domains \(pending.artifact) claims (association or associationFile)"
            )
        }
        do {
            (app.route, _) = try AppRouteBuilder.route(appID: app.appID, domains: domains, associationJSON: association, priority: pending.priority)
        } catch {
            throw ConfigurationError(field: error.field == "domains" ? "artifact" : error.field, error.message)
        }
        app.domains = domains
        app.claims = domains.compactMap(DomainClaim.init)
        app.artifact = AppArtifact(file: pending.artifact, kind: report.kind)
        return app
    }

    private func readApp(file: String) throws(ConfigurationError) -> Entry {
        let app = try ConfigurationFile.load(AppFile.self, from: file)
        let directory = ConfigurationFile.directory(of: file)
        let claimsNoLinks = (app.androidFile != nil || app.artifact != nil) && app.domains.isEmpty

        let associationBytes: [UInt8]?
        switch (app.association, app.associationFile) {
        case (nil, nil) where claimsNoLinks:
            // An app that only speaks intents, or routes by its Android filters alone, claims no universal links.
            associationBytes = nil
        case (let inline?, nil):
            associationBytes = (try? Array(JSONEncoder().encode(inline))) ?? []
        case (nil, let path?):
            let resolved = ConfigurationFile.resolve(path, against: directory)
            do {
                associationBytes = try ConfigurationFile.read(resolved)
            } catch {
                throw ConfigurationError(file: file, field: "associationFile", "\(resolved): \(error.message)")
            }
        default:
            throw ConfigurationError(file: file, field: "association", "give exactly one of `association` (inline) and `associationFile`")
        }
        let route: AppRoute?
        do {
            // An artifact app's domains may come from its artifact: its route waits for it.
            if let associationBytes, app.artifact == nil || !app.domains.isEmpty {
                (route, _) = try AppRouteBuilder.route(
                    appID: app.appID,
                    domains: app.domains,
                    associationJSON: associationBytes,
                    priority: app.priority ?? 0
                )
            } else {
                try AppRouteBuilder.checkAppID(app.appID)
                route = nil
            }
        } catch {
            throw ConfigurationError(file: file, field: error.field, error.message)
        }
        if let priority = app.priority, !RoutePriority.staticRange.contains(priority) {
            throw ConfigurationError(
                file: file,
                field: "priority",
                "must be between \(RoutePriority.staticRange.lowerBound) and \(RoutePriority.staticRange.upperBound)"
            )
        }

        guard app.handler.count == 1, let (kind, handlerConfiguration) = app.handler.first else {
            throw ConfigurationError(
                file: file,
                field: "handler",
                "must have exactly one key, the handler kind (\(factories.map(\.kind).joined(separator: ", ")))"
            )
        }
        guard let factory = factories.first(where: { $0.kind == kind }) else {
            throw ConfigurationError(
                file: file,
                field: "handler.\(kind)",
                "unknown handler kind; known kinds are \(factories.map(\.kind).joined(separator: ", "))"
            )
        }
        let context = HandlerFactoryContext(
            appID: app.appID,
            file: file,
            field: "handler.\(kind)",
            directory: directory,
            daemon: configuration
        )
        let handler = try factory.makeHandler(handlerConfiguration, context: context)
        var registered = RegisteredApp(
            appID: app.appID,
            route: route,
            domains: app.domains,
            claims: app.domains.compactMap(DomainClaim.init),
            handler: handler,
            origin: .configured(file: file)
        )
        if let artifact = app.artifact {
            return .pending(
                Pending(
                    file: file,
                    directory: directory,
                    artifact: ConfigurationFile.resolve(artifact, against: directory),
                    declared: app.androidFile,
                    association: associationBytes,
                    priority: app.priority ?? 0,
                    app: registered
                )
            )
        }
        if let identity = app.android {
            do {
                registered.android = identity
                registered.appLinks = try appLinks(of: identity, assetLinks: app.androidFile?.assetLinks ?? [:], directory: directory)
            } catch {
                throw error.located(in: file)
            }
        }
        return .ready(registered)
    }

    /// Reads the app's statement lists and verifies its hosts with them.
    private func appLinks(
        of identity: AndroidIdentity,
        assetLinks: [String: String],
        directory: String
    ) throws(ConfigurationError) -> AppLinkVerification {
        do {
            try AppLinkVerification.check(hosts: assetLinks.keys, of: identity)
        } catch {
            throw ConfigurationError(field: error.field, error.message)
        }
        var lists: [String: [UInt8]] = [:]
        for (host, path) in assetLinks {
            let resolved = ConfigurationFile.resolve(path, against: directory)
            do {
                lists[host.lowercased()] = try ConfigurationFile.read(resolved)
            } catch {
                throw ConfigurationError(field: "android.assetLinks.\(host)", "\(resolved): \(error.message)")
            }
        }
        do {
            return try AppLinkVerification(identity: identity, statementLists: lists)
        } catch {
            throw ConfigurationError(field: error.field, error.message)
        }
    }

    private static func jsonFiles(in directory: String) throws -> [String] {
        guard let stream = opendir(directory) else { throw POSIXErrorDescription(errno: errno) }
        defer { closedir(stream) }
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix(while: { $0 != 0 }), as: UTF8.self) }
            if name.hasSuffix(".json"), !name.hasPrefix(".") { names.append(name) }
        }
        return names.sorted()
    }
}
