import AppFlipCore
import ArgumentParser

/// `appflip aasa validate FILE`: every diagnostic, with where it is and why.
struct AASAValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check an apple-app-site-association file and print every problem found.",
        discussion: """
            Each diagnostic names its code (AASA###), its severity, a JSON pointer to the value at fault \
            and the reason. Errors make appflipd refuse the whole file; warnings do not. The codes are \
            listed in docs/routing.md.

            Exit status: 0 when the file has no errors (it may have warnings), 1 when it has errors, \
            2 when it cannot be read, 64 when the command line is wrong.
            """
    )

    @Argument(help: "The apple-app-site-association file.")
    var file: String

    @Flag(help: "Print one JSON object: {\"valid\":…,\"diagnostics\":[{\"code\",\"severity\",\"pointer\",\"message\"}]}.")
    var json = false

    func run() throws {
        let bytes = try AASAFileReader.read(file)
        let diagnostics = AssociationFile.validate(json: bytes)
        let valid = !diagnostics.contains { $0.severity == .error }
        if json {
            let list = diagnostics.map { diagnostic in
                JSONValue.object([
                    "code": .string(diagnostic.code.rawValue),
                    "severity": .string(diagnostic.severity.rawValue),
                    "pointer": .string(diagnostic.pointer),
                    "message": .string(diagnostic.message),
                ])
            }
            print(JSONValue.object(["valid": .bool(valid), "diagnostics": .array(list)]).compactJSON)
        } else {
            for diagnostic in diagnostics {
                print(diagnostic.description)
            }
            let errors = diagnostics.filter { $0.severity == .error }.count
            let warnings = diagnostics.count - errors
            if diagnostics.isEmpty {
                print("\(file): no problems found")
            } else {
                print(
                    "\(file): \(Self.count(errors, "error")), \(Self.count(warnings, "warning"))"
                        + (valid ? "" : "; appflipd would refuse this file")
                )
            }
        }
        if !valid { throw ExitCode(1) }
    }

    private static func count(_ number: Int, _ noun: String) -> String {
        "\(number) \(noun)\(number == 1 ? "" : "s")"
    }
}
