extension AppInspection {
    /// The report for people: the same facts as `--json`, one per line.
    func text(style: OutputStyle) -> String {
        var lines = ["\(style.bold(file)): \(kind) \(package)"]
        lines.append(
            "  version \(versionCode.map(String.init) ?? "-")\(versionName.map { " (\($0))" } ?? ""), minSdk \(minSdk), targetSdk \(targetSdk)"
        )
        if let signatures { lines += signatureLines(signatures) }
        if let uploadKey { lines.append("  " + style.yellow("upload key") + ": " + uploadKey) }
        lines.append("components:")
        for component in components { lines += componentLines(component, style: style) }
        lines.append("verified hosts (Android 12+): " + (verifiedHosts.isEmpty ? "none" : verifiedHosts.joined(separator: ", ")))
        if !resolutions.isEmpty {
            lines.append("resources:")
            for resolution in resolutions {
                var line = "  \(resolution.element) \(resolution.attribute) = \(resolution.reference)"
                if let value = resolution.value { line += " → \"\(value)\" (\(resolution.configuration ?? "-"))" }
                if !resolution.otherConfigurations.isEmpty { line += ", also in " + resolution.otherConfigurations.joined(separator: ", ") }
                if let dropped = resolution.dropped { line += style.yellow(" dropped: ") + dropped }
                lines.append(line)
            }
        }
        if !notes.isEmpty {
            lines.append("notes:")
            for note in notes {
                let severity = note.severity == "install-fails" ? style.red(note.severity) : style.yellow(note.severity)
                lines.append("  \(severity): \(note.element): \(note.message)")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private func signatureLines(_ signatures: Signatures) -> [String] {
        var lines = ["signatures: " + (signatures.schemes.isEmpty ? "none" : signatures.schemes.joined(separator: ", "))]
        for signer in signatures.signers {
            var head = "  \(signer.scheme)"
            if let name = signer.name { head += " \(name)" }
            if let min = signer.minSdk, let max = signer.maxSdk { head += " (SDK \(min)–\(max))" }
            lines.append("\(head): \(signer.certificate.sha256) \(signer.certificate.subject ?? "")")
            for certificate in signer.chain { lines.append("    chain: \(certificate.sha256) \(certificate.subject ?? "")") }
            if !signer.lineage.isEmpty {
                lines.append("    lineage, oldest first:")
                for node in signer.lineage {
                    lines.append("      \(node.sha256) \(node.subject ?? "") [\(node.capabilities.joined(separator: ", "))]")
                }
            }
            if let rotation = signer.rotationMinSdk { lines.append("    a v3.1 signer takes over from SDK \(rotation)") }
            for problem in signer.problems { lines.append("    problem: \(problem)") }
        }
        lines.append("  current: " + (signatures.current.isEmpty ? "none" : signatures.current.joined(separator: ", ")))
        if !signatures.past.isEmpty { lines.append("  past: " + signatures.past.joined(separator: ", ")) }
        return lines
    }

    private func componentLines(_ component: Component, style: OutputStyle) -> [String] {
        var flags = [component.exported ? "exported" : "not exported"]
        if component.exportedDeclared == nil { flags.append("exported by default") }
        if !component.enabled { flags.append("disabled") }
        if let target = component.targetActivity { flags.append("alias of \(target)") }
        var lines = ["  \(component.kind) \(component.name) (\(component.className)): \(flags.joined(separator: ", "))"]
        for filter in component.filters {
            var kind =
                filter.appLink
                ? style.green("App Link") : filter.webLinks ? "web link, not verified" : filter.schemes.isEmpty ? "explicit intents" : "links"
            if filter.autoVerify { kind += ", autoVerify" }
            lines.append("    intent-filter (\(kind))")
            lines.append("      actions: " + filter.actions.joined(separator: ", "))
            if !filter.categories.isEmpty { lines.append("      categories: " + filter.categories.joined(separator: ", ")) }
            if !filter.schemes.isEmpty { lines.append("      schemes: " + filter.schemes.joined(separator: ", ")) }
            if !filter.hosts.isEmpty {
                lines.append("      hosts: " + filter.hosts.map { $0.host + ($0.port.map { ":\($0)" } ?? "") }.joined(separator: ", "))
            }
            if !filter.paths.isEmpty { lines.append("      paths: " + filter.paths.map { "\($0.kind) \($0.pattern)" }.joined(separator: ", ")) }
            if !filter.mimeTypes.isEmpty { lines.append("      mimeTypes: " + filter.mimeTypes.joined(separator: ", ")) }
            if !filter.schemeSpecificParts.isEmpty {
                lines.append("      ssp: " + filter.schemeSpecificParts.map { "\($0.kind) \($0.pattern)" }.joined(separator: ", "))
            }
        }
        return lines
    }
}
