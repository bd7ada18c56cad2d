import AppFlipCore
import Foundation
import Testing

@testable import AppFlipArtifacts

/// Mach-O executables built to <mach-o/loader.h> and <mach-o/fat.h> with a code signature to cs_blobs.h, read
/// back and held against LLVM's own Mach-O reader, `llvm-objdump --macho`.
@Suite(.enabled(if: ArtifactTools.has("llvm-objdump"), "needs llvm-objdump (the Swift toolchain ships it)"))
struct MachOTests {
    /// What `llvm-objdump --macho --private-headers --arch=all` says of each architecture: its name and
    /// LC_CODE_SIGNATURE's `dataoff` and `datasize`.
    static func objdump(_ path: String) async throws -> [(architecture: String, dataOffset: Int, dataSize: Int, minimumOS: String)] {
        let output = try await ArtifactTools.output("llvm-objdump", ["--macho", "--private-headers", "--arch=all", path])
        var slices: [(String, Int, Int, String)] = []
        var architecture = ""
        var minimumOS = ""
        var dataOffset = 0
        var inSignature = false
        for line in output.split(separator: "\n") {
            let words = line.split(separator: " ")
            if let open = line.range(of: "(architecture ") { architecture = String(line[open.upperBound...].dropLast(2)) }
            if words.first == "minos" { minimumOS = String(words[1]) }
            if words == ["cmd", "LC_CODE_SIGNATURE"] { inSignature = true }
            if inSignature, words.first == "dataoff" { dataOffset = Int(words[1])! }
            if inSignature, words.first == "datasize" {
                slices.append((architecture, dataOffset, Int(words[1])!, minimumOS))
                inSignature = false
            }
        }
        return slices
    }

    static let entitlementsFile = "Demo.entitlements"

    @Test func thinExecutableMatchesLLVM() async throws {
        let path = try await AppleArtifactFixtures.path("Demo-arm64")
        let file = try MachOFile(path: path)
        #expect(!file.isUniversal)
        let slice = try #require(file.slices.first)
        let expected = try await Self.objdump(path)
        #expect(expected.count == 1)
        #expect(slice.signatureRange == expected[0].dataOffset..<(expected[0].dataOffset + expected[0].dataSize))
        #expect(slice.architecture == "arm64")
        #expect(slice.platform == "iOS")
        #expect(slice.minimumOS == expected[0].minimumOS)
        #expect(slice.fileType == 2)
        #expect(try await ArtifactTools.output("file", ["-b", path]).hasPrefix("Mach-O 64-bit arm64 executable"))
    }

    @Test func universalExecutableMatchesLLVM() async throws {
        let path = try await AppleArtifactFixtures.path("Demo-fat")
        let file = try MachOFile(path: path)
        #expect(file.isUniversal)
        let expected = try await Self.objdump(path)
        #expect(file.slices.map(\.architecture) == expected.map(\.architecture))
        for (slice, objdump) in zip(file.slices, expected) {
            #expect(slice.signatureRange == objdump.dataOffset..<(objdump.dataOffset + objdump.dataSize))
        }
        let headers = try await ArtifactTools.output("llvm-objdump", ["--macho", "--universal-headers", path])
        let offsets = headers.split(separator: "\n").filter { $0.hasPrefix("    offset ") }.map { Int($0.split(separator: " ")[1])! }
        #expect(file.slices.map(\.offset) == offsets)
        #expect(try await ArtifactTools.output("file", ["-b", path]).hasPrefix("Mach-O universal binary with 2 architectures"))
    }

    /// Both entitlement forms carry exactly the .entitlements file the executable was signed with.
    @Test func signatureCarriesTheEntitlementsInBothForms() async throws {
        let file = try MachOFile(path: try await AppleArtifactFixtures.path("Demo-fat"))
        let expected = Entitlements(
            try PropertyListReader.readDictionary(
                try await AppleArtifactFixtures.bytes(Self.entitlementsFile),
                file: "Demo.entitlements",
                what: "entitlements"
            )
        )
        for slice in file.slices {
            let signature = try #require(slice.signature)
            #expect(signature.entitlementsXML == expected)
            #expect(signature.entitlementsDER == expected)
            #expect(!signature.entitlementFormsDisagree)
            #expect(signature.codeDirectory.identifier == "com.example.demo")
            #expect(signature.codeDirectory.teamIdentifier == "ABCDE12345")
            #expect(signature.codeDirectory.hashName == "sha256")
            #expect(signature.codeDirectory.pageSize == 4096)
            #expect(signature.certificates.map(\.commonName).contains("Apple Development: Test Developer (DEVTEAM001)"))
        }
        #expect(file.primarySlice?.architecture == "arm64")
        #expect(!file.slicesDisagree)
        #expect(
            file.primarySlice?.signature?.entitlements?.associatedDomains?.applinks.map(\.description) == [
                "applinks:example.com", "applinks:*.example.com?mode=developer", "applinks:flip.example.com?mode=developer+managed",
            ]
        )
    }

    /// CS_ADHOC in the CodeDirectory's flags (big-endian, 12 bytes in) marks a signature made by no certificate.
    @Test func adHocFlagIsRead() async throws {
        let bytes = try await AppleArtifactFixtures.bytes("Demo-arm64")
        #expect(try MachOFile(bytes: bytes, name: "Demo-arm64").slices[0].signature?.codeDirectory.isAdHoc == false)
        let adHoc = bytes.patching32(HostileMachOTests.codeDirectory + 12, 0x2, bigEndian: true)
        #expect(try MachOFile(bytes: adHoc, name: "Demo-arm64").slices[0].signature?.codeDirectory.isAdHoc == true)
    }

    /// When the two forms disagree, iOS 15 and later read the DER one; when slices disagree, arm64 speaks. Both
    /// are flagged, for the audit. (`get-task-allow` is `01 01 FF` in DER: its value byte is flipped to false.)
    @Test func derFormAndArm64SliceSpeakWhenSourcesDisagree() async throws {
        var bytes = try await AppleArtifactFixtures.bytes("Demo-fat")
        let key = Array("get-task-allow".utf8) + [0x01, 0x01, 0xFF]
        let arm64 = 65536
        let value = try #require(bytes[arm64...].firstRange(of: key)).upperBound - 1
        bytes[value] = 0x00
        let file = try MachOFile(bytes: bytes, name: "Demo-fat")
        let signature = try #require(file.slices.last?.signature)
        #expect(signature.entitlementsXML?.getTaskAllow == true)
        #expect(signature.entitlementsDER?.getTaskAllow == false)
        #expect(signature.entitlements?.getTaskAllow == false)
        #expect(signature.entitlementFormsDisagree)
        #expect(file.slicesDisagree)
        #expect(file.primarySlice?.architecture == "arm64")
        #expect(IOSApp(executable: .init(entry: "Demo-fat", value: file)).claimedEntitlements?.entitlements.getTaskAllow == false)
    }

    /// The reader that an archive's inflater feeds, a chunk at a time, finds what the file reader finds, at every
    /// chunk size.
    @Test(arguments: [1, 7, 4096, 65536, 1 << 30])
    func streamedReadEqualsFileRead(chunk: Int) async throws {
        for name in ["Demo-fat", "Demo-arm64"] {
            let bytes = try await AppleArtifactFixtures.bytes(name)
            var stream = try MachOStream(size: bytes.count, name: name)
            var offset = 0
            while offset < bytes.count {
                try stream.consume(Array(bytes[offset..<min(bytes.count, offset + chunk)]))
                offset += chunk
            }
            #expect(try stream.finish() == MachOFile(bytes: bytes, name: name))
        }
    }
}
