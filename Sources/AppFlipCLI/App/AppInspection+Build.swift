import AppFlipArtifacts
import AppFlipCore

extension AppInspection {
    /// Google Play's re-signing, said once for every bundle.
    static let uploadKeyExplanation =
        "an Android App Bundle is signed with the upload key; Google Play re-signs the APKs it serves with the app signing key (Play Console, Setup > App signing), whose SHA-256 fingerprint assetlinks.json must name"

    init(_ artifact: AndroidArtifact) {
        let manifest = artifact.manifest
        self.init(
            file: artifact.file,
            kind: artifact.kind.rawValue,
            package: manifest.package,
            versionCode: manifest.versionCode,
            versionName: manifest.versionName,
            minSdk: manifest.minSDK.description,
            targetSdk: manifest.targetSDK.description,
            signatures: artifact.signatures.map(Signatures.init),
            uploadKey: artifact.kind == .aab ? Self.uploadKeyExplanation : nil,
            components: manifest.components.map(Component.init),
            verifiedHosts: manifest.verificationHosts,
            resolutions: manifest.resolutions.map(Resolution.init),
            notes: manifest.notes.map { Note(severity: $0.severity.rawValue, element: $0.element, message: $0.message) },
            identity: artifact.identity()
        )
    }
}

extension AppInspection.Certificate {
    init(_ certificate: SigningCertificate) {
        self.init(sha256: certificate.sha256, subject: certificate.subject, keyAlgorithm: certificate.keyAlgorithm)
    }
}

extension AppInspection.Signatures {
    init(_ signatures: APKSignatures) {
        let history = signatures.history()
        self.init(
            schemes: signatures.schemes.map(\.rawValue),
            signers: signatures.signers.map { signer in
                AppInspection.Signer(
                    scheme: signer.scheme.rawValue,
                    name: signer.name,
                    certificate: .init(signer.certificate),
                    chain: signer.certificates.dropFirst().map(AppInspection.Certificate.init),
                    minSdk: signer.sdkRange?.lowerBound,
                    maxSdk: signer.sdkRange?.upperBound,
                    lineage: signer.lineage.map {
                        .init(sha256: $0.certificate.sha256, subject: $0.certificate.subject, capabilities: $0.capabilities)
                    },
                    rotationMinSdk: signer.rotationMinSDK,
                    rotationTargetsDevRelease: signer.rotationTargetsDevRelease,
                    problems: signer.problems
                )
            },
            current: history.current,
            past: history.past,
            blockIDs: signatures.blockIDs.map { "0x" + String($0, radix: 16) }
        )
    }
}

extension AppInspection.Component {
    init(_ component: ManifestComponent) {
        self.init(
            kind: component.kind.rawValue,
            name: component.name,
            className: component.className,
            targetActivity: component.targetActivity,
            exported: component.exported,
            exportedDeclared: component.exportedDeclared,
            enabled: component.enabled,
            filters: component.filters.map(AppInspection.Filter.init)
        )
    }
}

extension AppInspection.Filter {
    /// The manifest attribute each PatternMatcher kind comes from.
    static func attribute(_ kind: PatternMatcher.Kind, prefix: String) -> String {
        switch kind {
        case .literal: prefix
        case .prefix: prefix + "Prefix"
        case .simpleGlob: prefix + "Pattern"
        case .advancedGlob: prefix + "AdvancedPattern"
        case .suffix: prefix + "Suffix"
        }
    }

    init(_ declared: ManifestIntentFilter) {
        let filter = declared.filter
        self.init(
            actions: filter.actions,
            categories: filter.categories,
            autoVerify: filter.autoVerify,
            schemes: filter.schemes,
            hosts: filter.authorities.map { .init(host: $0.host, port: $0.port) },
            paths: filter.paths.map { .init(kind: Self.attribute($0.kind, prefix: "path"), pattern: $0.pattern) },
            mimeTypes: declared.mimeTypes,
            schemeSpecificParts: declared.schemeSpecificParts.map { .init(kind: Self.attribute($0.kind, prefix: "ssp"), pattern: $0.pattern) },
            appLink: filter.isCollectedForVerification && declared.mimeTypes.isEmpty,
            webLinks: filter.handlesWebLinks && declared.mimeTypes.isEmpty
        )
    }
}

extension AppInspection.Resolution {
    init(_ resolution: ResourceResolution) {
        self.init(
            element: resolution.element,
            attribute: resolution.attribute,
            reference: resolution.reference,
            value: resolution.value,
            configuration: resolution.configuration,
            otherConfigurations: resolution.otherConfigurations,
            dropped: resolution.dropped
        )
    }
}
