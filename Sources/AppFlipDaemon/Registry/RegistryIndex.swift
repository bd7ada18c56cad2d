import AppFlipCore
import HashTreeCollections

/// The registry's apps by app id, by Android package and by claimed host, so that a registration finds the few apps it could
/// conflict with instead of scanning them all.
///
/// An app is named by its position in the order the registry checks apps in: a static app by its index, a
/// live app by its registration number, past every static index. Sorting positions restores that order, so
/// that the first conflict found is the one a scan would have found.
struct RegistryIndex {
    private var byAppID: TreeDictionary<String, TreeSet<Int>> = [:]
    private var byPackage: TreeDictionary<String, TreeSet<Int>> = [:]
    private var exact: TreeDictionary<String, TreeSet<Int>> = [:]
    private var wildcard: TreeDictionary<String, TreeSet<Int>> = [:]
    /// Apps with a claim, wildcard or not, on a host strictly under the key (`a.example.com` under `example.com`).
    private var under: TreeDictionary<String, TreeSet<Int>> = [:]

    mutating func insert(_ app: RegisteredApp, at position: Int) {
        byAppID[app.appID, default: []].insert(position)
        if let package = app.android?.package { byPackage[package, default: []].insert(position) }
        for claim in app.claims {
            if claim.isWildcard {
                wildcard[claim.host, default: []].insert(position)
            } else {
                exact[claim.host, default: []].insert(position)
            }
            for ancestor in Self.ancestors(of: claim.host) { under[ancestor, default: []].insert(position) }
        }
    }

    mutating func remove(_ app: RegisteredApp, at position: Int) {
        Self.remove(position, from: &byAppID, at: app.appID)
        if let package = app.android?.package { Self.remove(position, from: &byPackage, at: package) }
        for claim in app.claims {
            if claim.isWildcard {
                Self.remove(position, from: &wildcard, at: claim.host)
            } else {
                Self.remove(position, from: &exact, at: claim.host)
            }
            for ancestor in Self.ancestors(of: claim.host) { Self.remove(position, from: &under, at: ancestor) }
        }
    }

    /// The positions of the apps with `appID`, in order.
    func positions(of appID: String) -> [Int] {
        (byAppID[appID] ?? []).sorted()
    }

    /// The positions of the apps that are `package`, in order.
    func positions(ofPackage package: String) -> [Int] {
        (byPackage[package] ?? []).sorted()
    }

    /// Every app with `appID`, the Android `package`, or with a claim that may overlap one of `claims`, in order: all the apps a
    /// registration of them can conflict with, and maybe a few more, for the caller to check.
    func candidates(appID: String, package: String?, claims: [DomainClaim]) -> [Int] {
        var found = byAppID[appID] ?? []
        if let package { found.formUnion(byPackage[package] ?? []) }
        for claim in claims {
            // Equal hosts overlap whatever the wildcards; a wildcard above the host covers it; a wildcard
            // claim also covers every host under it.
            found.formUnion(exact[claim.host] ?? [])
            found.formUnion(wildcard[claim.host] ?? [])
            for ancestor in Self.ancestors(of: claim.host) { found.formUnion(wildcard[ancestor] ?? []) }
            if claim.isWildcard { found.formUnion(under[claim.host] ?? []) }
        }
        return found.sorted()
    }

    /// The hosts `host` is strictly under, as ``DomainClaim/overlaps(_:)`` reads them: each suffix that
    /// follows a dot.
    private static func ancestors(of host: String) -> [String] {
        var ancestors: [String] = []
        var index = host.startIndex
        while let dot = host[index...].firstIndex(of: ".") {
            index = host.index(after: dot)
            if index < host.endIndex { ancestors.append(String(host[index...])) }
        }
        return ancestors
    }

    private static func remove<Key: Hashable>(_ position: Int, from index: inout TreeDictionary<Key, TreeSet<Int>>, at key: Key) {
        index[key]?.remove(position)
        if index[key]?.isEmpty == true { index[key] = nil }
    }
}
