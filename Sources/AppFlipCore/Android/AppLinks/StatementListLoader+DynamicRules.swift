extension StatementListLoader {

    /// Android 15's `relation_extensions`. StatementService reads only `dynamic_app_link_components` under the
    /// `handle_all_urls` key (`optJSONObject`/`optJSONArray`: other types are as if absent) and throws when a
    /// component is not an object (`getJSONObject`).
    mutating func loadDynamicRules(_ value: JSONValue?, at pointer: String) -> (rules: [DynamicAppLinkRule], failsStatementService: Bool) {
        guard case .object(let extensions)? = value,
            case .object(let handleAll)? = extensions[RelationString.handleAllURLs],
            case .array(let components)? = handleAll["dynamic_app_link_components"]
        else { return ([], false) }
        let componentsPointer = JSONPointer.appending(
            "dynamic_app_link_components",
            to: JSONPointer.appending(RelationString.handleAllURLs, to: pointer)
        )
        var rules: [DynamicAppLinkRule] = []
        var fails = false
        for (index, component) in components.enumerated() {
            let componentPointer = JSONPointer.appending(index, to: componentsPointer)
            guard case .object(let parts) = component else {
                report(
                    .invalidDynamicComponent,
                    at: componentPointer,
                    "a dynamic component must be an object, not \(component.typeName); StatementService refuses the file"
                )
                fails = true
                continue
            }
            // In this order, which the diagnostics keep.
            let strings = dynamicStrings(parts, at: componentPointer)
            let query = dynamicQuery(parts["?"], at: componentPointer)
            let exclude = dynamicExclude(parts["exclude"], at: componentPointer)
            rules.append(
                DynamicAppLinkRule(
                    exclude: exclude,
                    path: strings["/"],
                    query: query,
                    fragment: strings["#"],
                    comments: strings["comments"],
                    pointer: componentPointer
                )
            )
        }
        return (rules, fails)
    }

    /// A component's `/`, `#` and `comments`, each a string; another type is reported and left out, and so
    /// is an empty expression reported, which the component parser refuses.
    private mutating func dynamicStrings(_ parts: [String: JSONValue], at componentPointer: String) -> [String: String] {
        var strings: [String: String] = [:]
        for key in ["/", "#", "comments"] {
            let pointer = JSONPointer.appending(key, to: componentPointer)
            guard let part = parts[key], let text = dynamicString(part, named: key, at: pointer) else { continue }
            strings[key] = text
            if text.isEmpty && key != "comments" {
                report(.invalidDynamicComponent, at: pointer, "an empty expression is refused by the component parser, so this rule never matches")
            }
        }
        return strings
    }

    /// `value` as a string; another type is reported as `name` that must be one, and left out.
    private mutating func dynamicString(_ value: JSONValue, named name: String, at pointer: String) -> String? {
        guard case .string(let text) = value else {
            report(.invalidDynamicComponent, at: pointer, "\(name) must be a string, not \(value.typeName)")
            return nil
        }
        return text
    }

    /// A component's `?`: parameter names to expressions. A value that is not a string is reported and left
    /// out; a `?` that is not an object is reported and read as absent.
    private mutating func dynamicQuery(_ value: JSONValue?, at componentPointer: String) -> [String: String]? {
        guard let value else { return nil }
        let queryPointer = JSONPointer.appending("?", to: componentPointer)
        guard case .object(let members) = value else {
            report(
                .invalidDynamicComponent,
                at: queryPointer,
                "? must be an object of parameter names to expressions, not \(value.typeName)"
            )
            return nil
        }
        var query: [String: String] = [:]
        for (name, expression) in members {
            query[name] = dynamicString(expression, named: "a query value", at: JSONPointer.appending(name, to: queryPointer))
        }
        return query
    }

    /// A component's `exclude`: a boolean, or the string `true` or `false` in any case; anything else is
    /// reported and read as false.
    private mutating func dynamicExclude(_ value: JSONValue?, at componentPointer: String) -> Bool {
        switch value {
        case .bool(let flag)?: return flag
        case .string(let text)? where text.lowercased() == "true" || text.lowercased() == "false": return text.lowercased() == "true"
        case nil: return false
        case let other?:
            report(
                .invalidDynamicComponent,
                at: JSONPointer.appending("exclude", to: componentPointer),
                "exclude must be a boolean, not \(other.typeName); it is read as false"
            )
            return false
        }
    }
}
