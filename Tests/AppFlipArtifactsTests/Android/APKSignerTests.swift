import AppFlipArtifacts
import AppFlipCore
import AppFlipTestSupport
import Testing

/// The signature readers against Google's `apksigner` on the same APKs: the same schemes, the same signers'
/// certificates (`verify --print-certs -v`), the same lineage with the same capabilities (`lineage
/// --print-certs -v`); and against `keytool -printcert -jarfile` for a bundle's JAR signature.
@Suite("Signatures against apksigner")
struct APKSignerTests {
    /// The SDK ranges apksigner verifies each APK for: v1 alone (18–23), v2 at most (24–27), and the newest
    /// scheme (from the manifest's minSdk; through 32 for the v3.1 APK, whose v3 block ends there and whose
    /// v3.1 block this apksigner does not read).
    static let ranges: [(min: Int?, max: Int?)] = [(18, 23), (24, 27), (nil, nil)]
    static let apks = ["app-v1.apk", "app-v1-ec.apk", "app-v2.apk", "app-v3.apk", "app-all.apk", "app-rotated.apk", "paths.apk", "app-v31.apk"]

    @Test("the signers apksigner verifies, for each SDK range", arguments: apks)
    func sameSignersAsAPKSigner(apk: String) async throws {
        let path = try await AndroidTestArtifacts.path(apk)
        let signatures = try APKSignatures.read(try ArtifactArchive(path: path))
        for range in Self.ranges {
            let maxSDK = range.max ?? (apk == "app-v31.apk" ? 32 : nil)
            var arguments = ["verify", "--print-certs", "-v"]
            if let min = range.min { arguments += ["--min-sdk-version", String(min)] }
            if let maxSDK { arguments += ["--max-sdk-version", String(maxSDK)] }
            let run = try await ArtifactTools.run("apksigner", arguments + [path])
            let ours = signatures.verifyingSigners(sdk: maxSDK)
            #expect((run.status == 0) == !ours.isEmpty, "\(apk) \(range): apksigner says \(run.output)")
            guard run.status == 0 else { continue }
            let report = APKSignerReport(run.output)
            #expect(ours.map(\.certificate.sha256) == report.signers.map(APKSignerReport.colonForm), "\(apk) \(range)")
            if let scheme = ours.first?.scheme { #expect(report.verified[scheme] == true, "\(apk) \(range): \(scheme)") }
        }
    }

    @Test("the proof-of-rotation lineage apksigner prints, for v3 and v3.1")
    func sameLineageAsAPKSigner() async throws {
        let run = try await ArtifactTools.run(
            "apksigner",
            ["lineage", "--in", try await AndroidTestArtifacts.path("app-rotated.apk"), "--print-certs", "-v"]
        )
        try #require(run.status == 0, "apksigner: \(run.output)")
        let expected = APKSignerReport.lineage(run.output)
        #expect(expected.count == 2)
        let rotated = try APKSignatures.read(try ArtifactArchive(path: try await AndroidTestArtifacts.path("app-rotated.apk")))
        let v31 = try APKSignatures.read(try ArtifactArchive(path: try await AndroidTestArtifacts.path("app-v31.apk")))
        for signer in [rotated.signers(.v3)[0], v31.signers(.v31)[0]] {
            #expect(signer.lineage.map(\.certificate.sha256) == expected.map(\.sha256))
            #expect(signer.lineage.map(\.capabilities) == expected.map(\.capabilities))
        }
    }

    @Test("a rotated APK: the new key is current, the old one past; before SDK 28 the old one signs")
    func rotationHistory() async throws {
        let old = try await Self.fingerprint("old.cer")
        let new = try await Self.fingerprint("new.cer")
        let rotated = try APKSignatures.read(try ArtifactArchive(path: try await AndroidTestArtifacts.path("app-rotated.apk")))
        #expect(rotated.history() == SigningCertificateHistory(current: [new], past: [old]))
        #expect(rotated.history(sdk: 27) == SigningCertificateHistory(current: [old], past: []))
        #expect(rotated.history().role(of: old) == .past && rotated.history().role(of: new) == .current)
        #expect(rotated.history().all == [old, new])
        #expect(rotated.history().role(of: try await Self.fingerprint("upload.cer")) == nil)
    }

    @Test("v3.1: the new key from SDK 33 with its lineage, the old key through SDK 32 by v3 with the rotation bound")
    func v31() async throws {
        let old = try await Self.fingerprint("old.cer")
        let new = try await Self.fingerprint("new.cer")
        let signatures = try APKSignatures.read(try ArtifactArchive(path: try await AndroidTestArtifacts.path("app-v31.apk")))
        #expect(signatures.schemes == [.v1, .v2, .v3, .v31])
        let v3 = try #require(signatures.signers(.v3).first)
        let v31 = try #require(signatures.signers(.v31).first)
        #expect(v3.certificate.sha256 == old && v3.sdkRange == 24...32 && v3.rotationMinSDK == 33)
        #expect(v31.certificate.sha256 == new && v31.sdkRange == 33...Int(Int32.max) && v31.problems.isEmpty)
        #expect(signatures.history() == SigningCertificateHistory(current: [new], past: [old]))
        #expect(signatures.history(sdk: 32) == SigningCertificateHistory(current: [old], past: []))
    }

    @Test("a bundle's JAR signature is its upload key, as keytool -printcert -jarfile prints it")
    func bundleUploadKey() async throws {
        let path = try await AndroidTestArtifacts.path("app.aab")
        let run = try await ArtifactTools.run("keytool", ["-printcert", "-jarfile", path])
        try #require(run.status == 0, "keytool: \(run.output)")
        let line = try #require(run.output.split(separator: "\n").first { $0.contains("SHA256:") })
        let expected = line.split(separator: " ").last.map(String.init)
        let artifact = try AndroidArtifactReader.readAAB(try ArtifactArchive(path: path))
        #expect(artifact.signatures?.signers.map(\.certificate.sha256) == [expected].compactMap { $0 })
        #expect(artifact.signatures?.history().current == [try await Self.fingerprint("upload.cer")])
    }

    /// The SHA-256 fingerprint of a certificate keytool exported.
    static func fingerprint(_ name: String) async throws -> String {
        let run = try await ArtifactTools.run("keytool", ["-printcert", "-file", try await AndroidTestArtifacts.path(name)])
        let line = run.output.split(separator: "\n").first { $0.contains("SHA256:") } ?? ""
        return line.split(separator: " ").last.map(String.init) ?? ""
    }
}

/// What `apksigner verify --print-certs -v` and `apksigner lineage --print-certs -v` print.
struct APKSignerReport {
    var verified: [SignatureScheme: Bool] = [:]
    /// `Signer #N certificate SHA-256 digest`, lower-case hex, in order.
    var signers: [String] = []

    init(_ output: String) {
        for line in output.split(separator: "\n") {
            for (scheme, label) in [(SignatureScheme.v1, "v1 scheme"), (.v2, "v2 scheme"), (.v3, "v3 scheme")]
            where line.hasPrefix("Verified using \(label)") {
                verified[scheme] = line.hasSuffix("true")
            }
            if line.hasPrefix("Signer #"), line.contains(" certificate SHA-256 digest: ") {
                signers.append(String(line.split(separator: " ").last!))
            }
        }
    }

    /// `a1b2…` as `A1:B2:…`.
    static func colonForm(_ hex: String) -> String {
        stride(from: 0, to: hex.count, by: 2).map { offset in
            let start = hex.index(hex.startIndex, offsetBy: offset)
            return hex[start..<hex.index(start, offsetBy: 2)].uppercased()
        }.joined(separator: ":")
    }

    /// Each lineage signer's certificate and capabilities, oldest first.
    static func lineage(_ output: String) -> [(sha256: String, capabilities: [String])] {
        var nodes: [(sha256: String, capabilities: [String])] = []
        let names = [
            ("installed data", "installed-data"), ("shared UID", "shared-uid"), ("permission", "permission"), ("rollback", "rollback"),
            ("auth", "auth"),
        ]
        for line in output.split(separator: "\n") {
            if line.contains(" in lineage certificate SHA-256 digest: ") {
                nodes.append((colonForm(String(line.split(separator: " ").last!)), []))
            }
            for (label, name) in names where line.hasPrefix("Has \(label) capability") && line.hasSuffix("true") {
                nodes[nodes.count - 1].capabilities.append(name)
            }
        }
        return nodes
    }
}
