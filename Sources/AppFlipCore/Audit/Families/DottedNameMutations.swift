/// The mutations of a dotted name a partner compares exactly: a host (its parent domain to the right) or
/// an Android package (its parent package to the left). Beside every identifier mutation, the neighbours a
/// suffix or prefix comparison lets through: another child of the same parent (`evil.googleusercontent.com`
/// beside `oauth-redirect.googleusercontent.com`; anyone may hold a name under a public suffix), a child of
/// the name, its parent, a foreign name that ends or starts with it.
public enum DottedNameMutations {
    /// Which way a name's hierarchy runs.
    public enum Order: Sendable {
        /// A host: `label.parent`.
        case host
        /// A reverse-DNS package: `parent.label`.
        case package
    }

    /// Every mutation of `name` in `families` (all by default), each once, none equal to `name`.
    public static func all(of name: String, order: Order, families: Set<MutationFamily> = Set(MutationFamily.allCases)) -> [Mutation] {
        var mutations = IdentifierMutations.all(of: name, families: families)
        if families.contains(.sibling) { mutations += siblings(of: name, order: order) }
        if families.contains(.trailing) && order == .host { mutations.append(Mutation(.trailing, "with a trailing dot", name + ".")) }
        return Unique.mutations(mutations, excluding: [name])
    }

    /// The neighbours of `name`.
    public static func siblings(of name: String, order: Order) -> [Mutation] {
        let labels = name.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        var mutations: [Mutation] = []
        switch order {
        case .host:
            let parent = labels.dropFirst().joined(separator: ".")
            if labels.count > 1 {
                mutations.append(Mutation(.sibling, "another host under \(parent)", "evil.\(parent)"))
                if labels.count > 2 { mutations.append(Mutation(.sibling, "its parent domain", parent)) }
            }
            mutations += [
                Mutation(.sibling, "a subdomain of it", "evil.\(name)"),
                Mutation(.sibling, "a host that ends with it", "evil-\(name)"),
                Mutation(.sibling, "a foreign domain that starts with it", "\(name).evil.test"),
                Mutation(.sibling, "a foreign domain", "attacker.example"),
            ]
        case .package:
            let parent = labels.dropLast().joined(separator: ".")
            if labels.count > 1 {
                mutations.append(Mutation(.sibling, "another package under \(parent)", "\(parent).evil"))
                if labels.count > 2 { mutations.append(Mutation(.sibling, "its parent package", parent)) }
            }
            mutations += [
                Mutation(.sibling, "a package under it", "\(name).evil"),
                Mutation(.sibling, "a package that starts with it", "\(name)evil"),
                Mutation(.sibling, "a foreign package that ends with it", "evil.\(name)"),
                Mutation(.sibling, "a foreign package", "com.attacker.app"),
            ]
        }
        return mutations
    }
}
