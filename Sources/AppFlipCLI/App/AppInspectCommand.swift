import AppFlipArtifacts
import ArgumentParser

/// `appflip app inspect FILE`: what an APK, an Android App Bundle or an `AndroidManifest.xml` declares for
/// App Flip and links, and how it is signed.
struct AppInspectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Print what an app artifact declares for App Flip and links, and its signing certificates.",
        discussion: """
            FILE is an APK, an Android App Bundle (.aab), or an AndroidManifest.xml (binary, aapt2 protobuf or \
            source); the kind is told by its content, not its name. Printed: the package, version and SDK \
            levels; every signing certificate by scheme (v1, v2, v3 with its proof-of-rotation lineage, v3.1) \
            as SHA-256 fingerprints, and which keys are current and which are past; each activity and alias \
            with its intent filters (App Links: autoVerify, schemes, hosts, paths of all five kinds; explicit \
            intents: action, exported, categories); the resource references resolved, with the configuration \
            taken; and what Android would refuse or drop. An AAB is signed by its upload key: Google Play \
            re-signs the APKs it serves with the app signing key, whose fingerprint assetlinks.json must name. \
            docs/artifacts.md.

            Exit status: 0 the artifact was read; 1 it cannot be read (the error names the structure and the \
            offset); 64 the command line is wrong.
            """
    )

    @Argument(help: "The artifact: an APK, an AAB, or an AndroidManifest.xml.")
    var file: String

    @Flag(help: "Print one JSON object (docs/artifacts.md lists its members).")
    var json = false

    func run() throws {
        let inspection: AppInspection
        do {
            inspection = try ArtifactDispatch.inspect(file)
        } catch {
            StandardStreams.writeError("appflip: \(error)")
            throw ExitCode(1)
        }
        if json {
            try OutputJSON.print(inspection)
        } else {
            print(inspection.text(style: .standard), terminator: "")
        }
    }
}
