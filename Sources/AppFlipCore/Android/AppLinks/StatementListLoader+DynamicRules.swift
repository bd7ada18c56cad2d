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
            var strings: [String: String] = [:]
            for key in ["/", "#", "comments"] {
                guard let part = parts[key] else { continue }
                if case .string(let text) = part {
                    strings[key] = text
                    if text.isEmpty && key != "comments" {
                        report(
                            .invalidDynamicComponent,
                            at: JSONPointer.appending(key, to: componentPointer),
                            "an empty expression is refused by the component parser, so this rule never matches"
                        )
                    }
                } else {
                    report(
                        .invalidDynamicComponent,
                        at: JSONPointer.appending(key, to: componentPointer),
                        "\(key) must be a string, not \(part.typeName)"
                    )
                }
            }
            var query: [String: String]?
            if let queryValue = parts["?"] {
                if case .object(let members) = queryValue {
                    var map: [String: String] = [:]
                    for (name, expression) in members {
                        if case .string(let text) = expression {
                            map[name] = text
                        } else {
                            report(
                                .invalidDynamicComponent,
                                at: JSONPointer.appending(name, to: JSONPointer.appending("?", to: componentPointer)),
                                "a query value must be a string, not \(expression.typeName)"
                            )
                        }
                    }
                    query = map
                } else {
                    report(
                        .invalidDynamicComponent,
                        at: JSONPointer.appending("?", to: componentPointer),
                        "? must be an object of parameter names to expressions, not \(queryValue.typeName)"
                    )
                }
            }
            var exclude = false
            switch parts["exclude"] {
            case .bool(let flag)?: exclude = flag
            case .string(let text)? where text.lowercased() == "true" || text.lowercased() == "false": exclude = text.lowercased() == "true"
            case nil: break
            case let other?:
                report(
                    .invalidDynamicComponent,
                    at: JSONPointer.appending("exclude", to: componentPointer),
                    "exclude must be a boolean, not \(other.typeName); it is read as false"
                )
            }
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
}
