import AppFlipArtifacts
import ArgumentParser
import FoundationEssentials

/// `appflip app inspect FILE`: what an app artifact, Android or iOS, declares for App Flip and links, and how
/// it is signed.
struct AppInspectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Print what an app artifact declares for App Flip and links, and how it is signed.",
        discussion: """
            FILE is an APK, an Android App Bundle (.aab), an AndroidManifest.xml (binary, aapt2 protobuf or \
            source), an .ipa, a provisioning profile (embedded.mobileprovision), a Mach-O executable, an \
            entitlements file or an Info.plist; the kind is told by its content (for a property list, by its \
            name or keys). Android: the package, version and SDK levels; every signing certificate by scheme \
            (v1, v2, v3 with its proof-of-rotation lineage, v3.1) as SHA-256 fingerprints, and which keys are \
            current and which are past; each activity and alias with its intent filters (App Links: \
            autoVerify, schemes, hosts, paths of all five kinds; explicit intents: action, exported, \
            categories); the resource references resolved; and what Android would refuse or drop. An AAB is \
            signed by its upload key: Google Play re-signs the APKs it serves with the app signing key, whose \
            fingerprint assetlinks.json must name. iOS: each source read (Info.plist, the profile with its \
            kind and expiry, the executable's code signature and the entitlements signed into it, an \
            entitlements file), the associated domains the app claims with their modes, and each source's app \
            ID. docs/artifacts.md.

            Exit status: 0 the artifact was read; 1 it cannot be read (the error names the structure and the \
            offset); 64 the command line is wrong.
            """
    )

    @Argument(help: "The artifact: an APK, an AAB, an AndroidManifest.xml, an .ipa, a profile, a Mach-O, an entitlements file or an Info.plist.")
    var file: String

    @Flag(help: "Print one JSON object (docs/artifacts.md lists its members).")
    var json = false

    func run() throws {
        let report: any ArtifactReport
        do {
            report = try ArtifactDispatch.inspect(file, now: Date())
        } catch {
            StandardStreams.writeError("appflip: \(error)")
            throw ExitCode(1)
        }
        if json {
            try report.printJSON()
        } else {
            print(report.text(style: .standard), terminator: "")
        }
    }
}
