import AppFlipConfiguration
import AppFlipCore
import AppFlipProtocol
import FoundationEssentials
import Glibc

/// Loads `apps.d/*.json`, one static app per file, in file-name order.
///
/// Loading is all or nothing: one bad file refuses the set, so that a reload keeps the previous apps.
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
        /// The app's Android identity; with it, `domains` and the association may be left out.
        var android: AndroidIdentity?
        /// Its App Links hosts' statement list files, by host.
        var assetLinks: [String: String]

        private enum CodingKeys: String, CodingKey, CaseIterable {
            case appID, domains, association, associationFile, handler, priority, android
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.strictContainer(keyedBy: CodingKeys.self)
            appID = try container.decode(String.self, forKey: .appID)
            let androidFile = try container.decodeIfPresent(AndroidIdentityFile.self, forKey: .android)
            android = androidFile?.identity
            assetLinks = androidFile?.assetLinks ?? [:]
            if android == nil {
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

    var configuration: DaemonConfiguration
    var factories: [any HandlerFactory]

    func load() throws(ConfigurationError) -> [RegisteredApp] {
        guard let directory = configuration.appsDirectory else { return [] }
        let names: [String]
        do {
            names = try Self.jsonFiles(in: directory)
        } catch {
            throw ConfigurationError(file: directory, "cannot list the apps directory: \(error)")
        }
        var apps: [RegisteredApp] = []
        for name in names {
            let app = try loadApp(file: directory + "/" + name)
            if let other = apps.first(where: { $0.appID == app.appID }) {
                guard case .configured(let otherFile) = other.origin else { continue }
                throw ConfigurationError(file: directory + "/" + name, field: "appID", "\(app.appID) is already declared in \(otherFile)")
            }
            if let package = app.android?.package, let other = apps.first(where: { $0.android?.package == package }),
                case .configured(let otherFile) = other.origin
            {
                throw ConfigurationError(
                    file: directory + "/" + name,
                    field: "android.package",
                    "\(package) is already the package of \(other.appID) in \(otherFile)"
                )
            }
            apps.append(app)
        }
        return apps
    }

    private func loadApp(file: String) throws(ConfigurationError) -> RegisteredApp {
        let app = try ConfigurationFile.load(AppFile.self, from: file)
        let directory = ConfigurationFile.directory(of: file)

        let associationBytes: [UInt8]?
        switch (app.association, app.associationFile) {
        case (nil, nil) where app.android != nil && app.domains.isEmpty:
            // An app that only speaks intents claims no links.
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
            if let associationBytes {
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
        return RegisteredApp(
            appID: app.appID,
            route: route,
            domains: app.domains,
            claims: app.domains.compactMap(DomainClaim.init),
            android: app.android,
            appLinks: try appLinks(of: app, file: file, directory: directory),
            handler: handler,
            origin: .configured(file: file)
        )
    }

    /// Reads the app's statement lists and verifies its hosts with them.
    private func appLinks(of app: AppFile, file: String, directory: String) throws(ConfigurationError) -> AppLinkVerification? {
        guard let identity = app.android else { return nil }
        do {
            try AppLinkVerification.check(hosts: app.assetLinks.keys, of: identity)
        } catch {
            throw ConfigurationError(file: file, field: error.field, error.message)
        }
        var lists: [String: [UInt8]] = [:]
        for (host, path) in app.assetLinks {
            let resolved = ConfigurationFile.resolve(path, against: directory)
            do {
                lists[host.lowercased()] = try ConfigurationFile.read(resolved)
            } catch {
                throw ConfigurationError(file: file, field: "android.assetLinks.\(host)", "\(resolved): \(error.message)")
            }
        }
        do {
            return try AppLinkVerification(identity: identity, statementLists: lists)
        } catch {
            throw ConfigurationError(file: file, field: error.field, error.message)
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
