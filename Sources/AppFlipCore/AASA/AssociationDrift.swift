/// What changed in meaning between two association files for one domain (a committed one and the hosted one):
/// the apps that appear or vanish, and the URLs whose decision or deciding rule changed for some app. Text
/// that decides the same (reordered keys, whitespace, a new comment) is no drift.
public struct AssociationDrift: Sendable {
    /// One URL decided differently for one app.
    public struct Change: Sendable, Hashable, CustomStringConvertible {
        /// The app whose decision changed.
        public let appID: String
        /// The URL decided.
        public let url: String
        /// The committed file's decision.
        public let before: AppDecision
        /// The hosted file's decision.
        public let after: AppDecision

        /// `URL for APP: before → after`.
        public var description: String {
            "\(url) for \(appID): \(before) → \(after)"
        }
    }

    /// Apps the hosted file names and the committed one does not.
    public let appeared: [String]
    /// Apps the committed file names and the hosted one does not.
    public let vanished: [String]
    /// Every URL whose decision (or deciding rule) changed, by URL and then app.
    public let changes: [Change]

    /// True when both files mean the same for every app and URL compared.
    public var isEmpty: Bool { appeared.isEmpty && vanished.isEmpty && changes.isEmpty }

    /// Compares `committed` with `hosted` on `urls`, for every app either names.
    public init(committed: AssociationFile, hosted: AssociationFile, urls: [RawURL]) {
        let before = Set(committed.appIDs)
        let after = Set(hosted.appIDs)
        appeared = hosted.appIDs.filter { !before.contains($0) }
        vanished = committed.appIDs.filter { !after.contains($0) }
        let apps = committed.appIDs + appeared
        var changes: [Change] = []
        for url in urls {
            for app in apps {
                let old = committed.decide(appID: app, url: url)
                let new = hosted.decide(appID: app, url: url)
                if old.outcome != new.outcome || old.rule != new.rule {
                    changes.append(Change(appID: app, url: url.description, before: old, after: new))
                }
            }
        }
        self.changes = changes
    }

    /// The URLs a drift report compares on: `extra` (the URLs the user asked about), then one URL on `host` for
    /// each path pattern of either file (`AssociationFile.samplePaths`), without repeats. A sample that is not
    /// a URL (a pattern with a space, say) is left out.
    public static func probeURLs(host: String, files: [AssociationFile], extra: [RawURL]) -> [RawURL] {
        var seen = Set(extra.map(\.description))
        var urls = extra
        for path in files.flatMap(\.samplePaths) {
            guard let url = try? RawURL("https://\(host)\(path)"), seen.insert(url.description).inserted else { continue }
            urls.append(url)
        }
        return urls
    }
}
