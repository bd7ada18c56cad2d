/// `android_app` and `web` targets, with what each verifier requires of them (see `StatementList`).
extension StatementListLoader {
    struct LoadedTarget {
        var target: AssetTarget?
        var google = true
        var failsStatementService = false
    }

    mutating func loadTarget(_ fields: [String: JSONValue], at pointer: String) -> LoadedTarget {
        var loaded = LoadedTarget()
        reportAASAKeys(fields, at: pointer)
        reportMisCasedKeys(fields, known: Self.targetKeys, at: pointer)
        let namespace: String
        switch fields["namespace"] {
        case .string(let value)?: namespace = value
        default: namespace = ""
        }
        switch namespace {
        case "android_app":
            return loadAndroidApp(fields, at: pointer)
        case "web":
            return loadWeb(fields, at: pointer)
        default:
            let message =
                namespace.isEmpty
                ? "the target has no namespace string; it must be android_app or web"
                : "unrecognized namespace \"\(namespace)\"; it must be android_app or web"
            report(.unknownNamespace, at: fields["namespace"] == nil ? pointer : JSONPointer.appending("namespace", to: pointer), message)
            loaded.google = false
            loaded.failsStatementService = true
            return loaded
        }
    }

    mutating func loadAndroidApp(_ fields: [String: JSONValue], at pointer: String) -> LoadedTarget {
        var loaded = LoadedTarget()
        let packagePointer = JSONPointer.appending("package_name", to: pointer)
        var packageName = ""
        switch fields["package_name"] {
        case .string(let value)? where !value.isEmpty:
            packageName = value
            if !AndroidPackageName.isValid(value) {
                report(
                    .invalidPackageName,
                    at: packagePointer,
                    "\"\(value)\" is not a valid Android package name (dot-separated segments, each starting with a letter), so no installed app can match it"
                )
                loaded.google = false
            }
        case nil:
            if !hasMisCasedKey(fields, for: "package_name") {
                report(.missingPackageName, at: pointer, "the android_app target has no package_name")
            }
            loaded.google = false
            loaded.failsStatementService = true
        case let other?:
            report(
                .missingPackageName,
                at: packagePointer,
                "package_name must be a non-empty string, not \(other.typeName == "a string" ? "an empty string" : other.typeName)"
            )
            loaded.google = false
            loaded.failsStatementService = true
        }
        let fingerprintsPointer = JSONPointer.appending("sha256_cert_fingerprints", to: pointer)
        var fingerprints: [String] = []
        switch fields["sha256_cert_fingerprints"] {
        case .array(let values)? where !values.isEmpty:
            for (index, value) in values.enumerated() {
                let elementPointer = JSONPointer.appending(index, to: fingerprintsPointer)
                guard case .string(let fingerprint) = value else {
                    report(.fingerprintNotString, at: elementPointer, "a fingerprint must be a string, not \(value.typeName)")
                    loaded.google = false
                    continue
                }
                if let problem = CertificateFingerprint.problem(fingerprint) {
                    let (code, message) = Self.describe(problem)
                    report(code, at: elementPointer, message)
                    loaded.google = false
                }
                fingerprints.append(fingerprint)
            }
        case nil:
            if !hasMisCasedKey(fields, for: "sha256_cert_fingerprints") {
                report(.missingFingerprints, at: pointer, "the android_app target has no sha256_cert_fingerprints")
            }
            loaded.google = false
            loaded.failsStatementService = true
        case let other?:
            report(
                .missingFingerprints,
                at: fingerprintsPointer,
                "sha256_cert_fingerprints must be a non-empty array of fingerprints, not \(other.typeName == "an array" ? "an empty array" : other.typeName)"
            )
            loaded.google = false
            loaded.failsStatementService = true
        }
        if !loaded.failsStatementService {
            loaded.target = .androidApp(packageName: packageName, fingerprints: fingerprints)
        }
        return loaded
    }

    mutating func loadWeb(_ fields: [String: JSONValue], at pointer: String) -> LoadedTarget {
        var loaded = LoadedTarget()
        let sitePointer = JSONPointer.appending("site", to: pointer)
        guard case .string(let site)? = fields["site"], !site.isEmpty else {
            if fields["site"] != nil || !hasMisCasedKey(fields, for: "site") {
                report(.missingSite, at: fields["site"] == nil ? pointer : sitePointer, "the web target has no site string")
            }
            loaded.google = false
            loaded.failsStatementService = true
            return loaded
        }
        do {
            _ = try WebSite.parse(site)
        } catch {
            let (code, message) = Self.describe(error, site)
            report(code, at: sitePointer, message)
            loaded.google = false
        }
        do {
            _ = try WebSite.parseAsStatementService(site)
            loaded.target = .web(site: site)
        } catch {
            loaded.failsStatementService = true
        }
        return loaded
    }
}
