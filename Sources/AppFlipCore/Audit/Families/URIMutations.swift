/// The mutations of an absolute URI a partner compares exactly — a redirect URI (RFC 6749 §3.1.2.3: simple
/// string comparison) — over its grammar: each component (scheme, host, path) in another case,
/// percent-encoded once and twice, in Unicode lookalikes; the host's neighbours; ports; userinfo; query and
/// fragment parameters added; dot segments; trailing characters; cut short and extended. None is one of
/// the exact values: a partner that accepts one hands a code to whoever owns what it names.
public enum URIMutations {
    /// Every mutation of `uri` in `families` (all by default), each once, none equal to `uri` or to any of
    /// `exact` (the other URIs the partner rightly accepts).
    public static func all(of uri: String, exact: [String] = [], families: Set<MutationFamily> = Set(MutationFamily.allCases)) -> [Mutation] {
        guard let parts = Parts(uri) else { return Unique.mutations(IdentifierMutations.all(of: uri, families: families), excluding: [uri] + exact) }
        var mutations: [Mutation] = []
        for family in MutationFamily.allCases where families.contains(family) {
            mutations += generate(family, parts, uri)
        }
        return Unique.mutations(mutations, excluding: [uri] + exact)
    }

    /// `scheme://authority` and the rest (path, query, fragment), as written.
    struct Parts {
        var scheme: String
        var host: String
        var path: String

        init?(_ uri: String) {
            guard let separator = uri.firstRange(of: "://") else { return nil }
            scheme = String(uri[..<separator.lowerBound])
            let rest = uri[separator.upperBound...]
            let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
            host = String(rest[..<authorityEnd])
            path = String(rest[authorityEnd...])
            guard !scheme.isEmpty, !host.isEmpty, !host.contains("@"), !host.contains(":") else { return nil }
        }

        func uri(scheme: String? = nil, host: String? = nil, path: String? = nil) -> String {
            "\(scheme ?? self.scheme)://\(host ?? self.host)\(path ?? self.path)"
        }
    }

    private static func generate(_ family: MutationFamily, _ parts: Parts, _ uri: String) -> [Mutation] {
        switch family {
        case .letterCase:
            return [
                Mutation(.letterCase, "the scheme in upper case", parts.uri(scheme: parts.scheme.uppercased())),
                Mutation(.letterCase, "the host in upper case", parts.uri(host: parts.host.uppercased())),
                Mutation(.letterCase, "the path in upper case", parts.uri(path: parts.path.uppercased())),
                Mutation(.letterCase, "the path in lower case", parts.uri(path: parts.path.lowercased())),
            ]
        case .percentEncoding, .doublePercentEncoding:
            let twice = family == .doublePercentEncoding
            let encode = { (character: Character) in
                let once = Lookalikes.percentEncoded(character)
                return twice ? once.replacing("%", with: "%25") : once
            }
            let how = twice ? "percent-encoded twice" : "percent-encoded"
            var mutations: [Mutation] = []
            // A '.' first (dot segments and extensions are where decoding changes meaning), else a letter.
            let pathCharacter: (Character) -> Bool = parts.path.contains(".") ? { $0 == "." } : { $0.isLetter }
            if let (path, original) = Lookalikes.replacingFirst(in: parts.path, { pathCharacter($0) ? encode($0) : nil }) {
                mutations.append(Mutation(family, "'\(original)' of the path \(how)", parts.uri(path: path)))
            }
            if parts.path.hasPrefix("/"),
                let (path, _) = Lookalikes.replacingFirst(in: String(parts.path.dropFirst()), { $0 == "/" ? encode($0) : nil })
            {
                mutations.append(Mutation(family, "a '/' of the path \(how)", parts.uri(path: "/" + path)))
            }
            if let (host, original) = Lookalikes.replacingFirst(in: parts.host, { $0.isLetter || $0 == "-" ? encode($0) : nil }) {
                mutations.append(Mutation(family, "'\(original)' of the host \(how)", parts.uri(host: host)))
            }
            return mutations
        case .unicode:
            let host = IdentifierMutations.unicode(parts.host).map { Mutation(.unicode, "the host: \($0.label)", parts.uri(host: $0.value)) }
            let path = IdentifierMutations.unicode(parts.path).map { Mutation(.unicode, "the path: \($0.label)", parts.uri(path: $0.value)) }
            let dot = Mutation(
                .unicode,
                "a dot of the host in its fullwidth form (NFKC gives it back)",
                parts.uri(host: parts.host.replacing(".", with: "\u{FF0E}", maxReplacements: 1))
            )
            return host + [dot] + path
        case .prefix:
            let lastSegment = parts.path.lastIndex(of: "/").map { parts.uri(path: String(parts.path[...$0])) }
            return [Mutation(.prefix, "without its last character", String(uri.dropLast()))]
                + (lastSegment.map { [Mutation(.prefix, "without the path's last segment", $0)] } ?? [])
        case .suffix:
            return [
                Mutation(.suffix, "with a character appended", uri + "x"), Mutation(.suffix, "with a path segment appended", uri + "/extra"),
                Mutation(.suffix, "with a NUL and more appended", uri + "\u{0}x"),
            ]
        case .sibling:
            let hosts = DottedNameMutations.siblings(of: parts.host, order: .host).map {
                Mutation(.sibling, "the host replaced by \($0.label)", parts.uri(host: $0.value))
            }
            var segments = parts.path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
            var paths: [Mutation] = []
            if segments.count > 2 {
                segments[1] = "evil"
                paths.append(Mutation(.sibling, "another path beside it", parts.uri(path: segments.joined(separator: "/"))))
            }
            return hosts + paths + [
                Mutation(.sibling, "http, not https", parts.uri(scheme: "http")),
                Mutation(.sibling, "userinfo before the host", parts.uri(host: "attacker.example@" + parts.host)),
                Mutation(.sibling, "the host as userinfo of a foreign host", parts.uri(host: parts.host + "@attacker.example")),
            ]
        case .parameters:
            return [
                Mutation(.parameters, "with a query", uri + "?next=1"), Mutation(.parameters, "with an empty query", uri + "?"),
                Mutation(.parameters, "with a query naming a foreign URI", uri + "?redirect_uri=https%3A%2F%2Fattacker.example%2F"),
                Mutation(.parameters, "with a fragment", uri + "#f"),
            ]
        case .port:
            return [
                Mutation(.port, "with the default port :443", parts.uri(host: parts.host + ":443")),
                Mutation(.port, "with port :8443", parts.uri(host: parts.host + ":8443")),
                Mutation(.port, "with an empty port", parts.uri(host: parts.host + ":")),
            ]
        case .trailing:
            return [
                Mutation(.trailing, "with a trailing '/'", uri + "/"), Mutation(.trailing, "with a trailing '?'", uri + "?"),
                Mutation(.trailing, "with a trailing '#'", uri + "#"), Mutation(.trailing, "with a trailing '.'", uri + "."),
                Mutation(.trailing, "with a trailing space", uri + " "), Mutation(.trailing, "with a trailing NUL", uri + "\u{0}"),
                Mutation(.trailing, "with a leading space", " " + uri),
                Mutation(.trailing, "a trailing dot on the host", parts.uri(host: parts.host + ".")),
            ]
        case .truncation:
            return [Mutation(.truncation, "the origin alone", parts.uri(path: "")), Mutation(.truncation, "empty", "")]
        case .reserved:
            return [
                Mutation(.reserved, "a '.' segment in the path", parts.uri(path: "/." + parts.path)),
                Mutation(.reserved, "a '..' segment in the path", parts.uri(path: "/evil/.." + parts.path)),
                Mutation(.reserved, "a doubled '/' in the path", parts.uri(path: "/" + parts.path)),
                Mutation(.reserved, "a backslash before userinfo", parts.uri(host: "attacker.example\\@" + parts.host)),
            ]
        case .length:
            return []
        }
    }
}
