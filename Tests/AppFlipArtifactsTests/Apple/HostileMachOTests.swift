import Foundation
import Testing

@testable import AppFlipArtifacts

/// A hostile case: a valid artifact broken one way, and the error that must name the structure and the offset.
struct Hostile: CustomTestStringConvertible, Sendable {
    let name: String
    let base: String
    let breakIt: @Sendable ([UInt8]) -> [UInt8]
    let structure: String
    let offset: Int?
    let says: String

    var testDescription: String { name }

    /// Expects `read` to refuse the broken bytes with exactly this structure and offset, and a message saying `says`.
    func check(_ read: ([UInt8]) throws(ArtifactError) -> Void) async throws {
        let bytes = breakIt(try await AppleArtifactFixtures.bytes(base))
        do {
            try read(bytes)
            Issue.record("\(name): read without error")
        } catch {
            #expect(error.structure == structure, "\(name): \(error)")
            #expect(error.offset == offset, "\(name): \(error)")
            #expect(error.message.contains(says), "\(name): \(error)")
        }
    }
}

extension [UInt8] {
    /// A copy with the byte at `offset` replaced.
    func patching8(_ offset: Int, _ value: UInt8) -> [UInt8] {
        var copy = self
        copy[offset] = value
        return copy
    }

    /// A copy with the 32-bit value at `offset` replaced, in the given byte order.
    func patching32(_ offset: Int, _ value: UInt32, bigEndian: Bool = false) -> [UInt8] {
        var copy = self
        for index in 0..<4 {
            let shift = bigEndian ? 24 - 8 * index : 8 * index
            copy[offset + index] = UInt8(truncatingIfNeeded: value >> UInt32(shift))
        }
        return copy
    }
}

/// Hostile Mach-O files and code signatures, each from the thin arm64 executable (header 0..<32; load commands
/// 32..<368: __PAGEZERO, __TEXT, __LINKEDIT, LC_BUILD_VERSION at 328, LC_CODE_SIGNATURE at 352; signature at
/// 32768: SuperBlob length at 32772, count at 32776, index from 32780, the CodeDirectory at 32820) or the
/// universal one (fat header 0..<8, arch table 8..<48, slices at 16384 and 65536).
@Suite(.timeLimit(.minutes(1)))
struct HostileMachOTests {
    static let signature = 32768
    static let codeDirectory = 32820

    static let cases: [Hostile] = [
        Hostile(
            name: "shorter than a header",
            base: "Demo-arm64",
            breakIt: { Array($0.prefix(20)) },
            structure: "Mach-O header",
            offset: 0,
            says: "shorter than a 32-byte header"
        ),
        Hostile(
            name: "cut in the load commands",
            base: "Demo-arm64",
            breakIt: { Array($0.prefix(200)) },
            structure: "Mach-O header",
            offset: 20,
            says: "sizeofcmds 336 runs past"
        ),
        Hostile(
            name: "cut in the signature",
            base: "Demo-arm64",
            breakIt: { Array($0.prefix(signature + 100)) },
            structure: "LC_CODE_SIGNATURE",
            offset: 352,
            says: "runs past the image"
        ),
        Hostile(
            name: "a load command of size 0",
            base: "Demo-arm64",
            breakIt: { $0.patching32(36, 0) },
            structure: "Mach-O load command",
            offset: 36,
            says: "cmdsize 0"
        ),
        Hostile(
            name: "a load command past sizeofcmds",
            base: "Demo-arm64",
            breakIt: { $0.patching32(356, 32) },
            structure: "Mach-O load command",
            offset: 356,
            says: "cmdsize 32, not 8 to the 16 bytes left"
        ),
        Hostile(
            name: "more commands than sizeofcmds holds",
            base: "Demo-arm64",
            breakIt: { $0.patching32(16, 1000) },
            structure: "Mach-O load command",
            offset: 368,
            says: "load command 5 of 1000 starts past sizeofcmds"
        ),
        Hostile(
            name: "sizeofcmds past the file",
            base: "Demo-arm64",
            breakIt: { $0.patching32(20, 0xFFFF_FFF0) },
            structure: "Mach-O header",
            offset: 20,
            says: "runs past the image"
        ),
        Hostile(
            name: "LC_CODE_SIGNATURE of the wrong size",
            base: "Demo-arm64",
            breakIt: { $0.patching32(328, 0x1D) },
            structure: "Mach-O load command",
            offset: 332,
            says: "cmdsize is 24, not 16"
        ),
        Hostile(
            name: "the signature over the load commands",
            base: "Demo-arm64",
            breakIt: { $0.patching32(360, 100) },
            structure: "LC_CODE_SIGNATURE",
            offset: 352,
            says: "overlaps the header and load commands"
        ),
        Hostile(
            name: "the signature past the file",
            base: "Demo-arm64",
            breakIt: { $0.patching32(364, 0x7FFF_FFFF) },
            structure: "LC_CODE_SIGNATURE",
            offset: 352,
            says: "runs past the image"
        ),
        Hostile(
            name: "a SuperBlob count too large",
            base: "Demo-arm64",
            breakIt: { $0.patching32(signature + 8, 0xFFFF_FFFF, bigEndian: true) },
            structure: "code signature",
            offset: signature + 8,
            says: "index entries do not fit"
        ),
        Hostile(
            name: "an index entry past the SuperBlob",
            base: "Demo-arm64",
            breakIt: { $0.patching32(signature + 16, 0x7FFF_FFFF, bigEndian: true) },
            structure: "code signature",
            offset: signature + 16,
            says: "past the SuperBlob"
        ),
        Hostile(
            name: "a SuperBlob longer than its data",
            base: "Demo-arm64",
            breakIt: { $0.patching32(signature + 4, 0x00FF_FFFF, bigEndian: true) },
            structure: "code signature",
            offset: signature + 4,
            says: "not between 8 and"
        ),
        Hostile(
            name: "a blob shorter than its header",
            base: "Demo-arm64",
            breakIt: { $0.patching32(codeDirectory + 4, 4, bigEndian: true) },
            structure: "code signature",
            offset: codeDirectory + 4,
            says: "length 4"
        ),
        Hostile(
            name: "not a SuperBlob",
            base: "Demo-arm64",
            breakIt: { $0.patching32(signature, 0xFADE_0CC1, bigEndian: true) },
            structure: "code signature",
            offset: signature,
            says: "neither an embedded signature"
        ),
        Hostile(
            name: "an identifier without its NUL",
            base: "Demo-arm64",
            breakIt: { $0.patching32(codeDirectory + 20, 0xFFFF, bigEndian: true) },
            structure: "CodeDirectory",
            offset: codeDirectory + 20,
            says: "does not end with a NUL"
        ),
        Hostile(
            name: "code hashes past the CodeDirectory",
            base: "Demo-arm64",
            breakIt: { $0.patching32(codeDirectory + 28, 0x00FF_FFFF, bigEndian: true) },
            structure: "CodeDirectory",
            offset: codeDirectory + 16,
            says: "do not fit"
        ),
        Hostile(
            name: "an unknown hash type",
            base: "Demo-arm64",
            breakIt: { $0.patching8(codeDirectory + 37, 9) },
            structure: "CodeDirectory",
            offset: codeDirectory + 36,
            says: "hash type 9"
        ),
        Hostile(
            name: "an odd page size",
            base: "Demo-arm64",
            breakIt: { $0.patching8(codeDirectory + 39, 0) },
            structure: "CodeDirectory",
            offset: codeDirectory + 39,
            says: "page size 2^0"
        ),
        Hostile(
            name: "a CodeDirectory slot without one",
            base: "Demo-arm64",
            breakIt: { $0.patching32(codeDirectory, 0xFADE_7171, bigEndian: true) },
            structure: "CodeDirectory",
            offset: codeDirectory,
            says: "magic 0xfade0c02"
        ),
        Hostile(
            name: "not a Mach-O file",
            base: "Demo-arm64",
            breakIt: { _ in Array("#!/bin/sh\necho hello\n".utf8) },
            structure: "fat header",
            offset: 0,
            says: "neither a Mach-O nor a universal file"
        ),
        Hostile(
            name: "a huge nfat_arch",
            base: "Demo-fat",
            breakIt: { $0.patching32(4, 0xFFFF_FFFF, bigEndian: true) },
            structure: "fat header",
            offset: 4,
            says: "nfat_arch 4294967295: the arch table would end at 85899345908, past the first 16384 bytes xnu reads"
        ),
        Hostile(
            name: "an arch table past the first page",
            base: "Demo-fat",
            breakIt: { $0.patching32(4, 1000, bigEndian: true) },
            structure: "fat header",
            offset: 4,
            says: "nfat_arch 1000: the arch table would end at 20008, past the first 16384 bytes xnu reads"
        ),
        Hostile(
            name: "no architectures",
            base: "Demo-fat",
            breakIt: { $0.patching32(4, 0, bigEndian: true) },
            structure: "fat header",
            offset: 4,
            says: "nfat_arch is 0"
        ),
        Hostile(
            name: "a Java class file",
            base: "Demo-fat",
            breakIt: { _ in [0xCA, 0xFE, 0xBA, 0xBE, 0, 0, 0, 0x34] + [UInt8](repeating: 0, count: 100) },
            structure: "fat header",
            offset: 4,
            says: "past the file's 108 bytes"
        ),
        Hostile(
            name: "a slice past the file",
            base: "Demo-fat",
            breakIt: { $0.patching32(40, 0x7FFF_FFFF, bigEndian: true) },
            structure: "fat arch table",
            offset: 36,
            says: "runs past the file"
        ),
        Hostile(
            name: "a slice inside the fat header",
            base: "Demo-fat",
            breakIt: { $0.patching32(16, 0, bigEndian: true) },
            structure: "fat arch table",
            offset: 16,
            says: "inside the fat header"
        ),
        Hostile(
            name: "overlapping slices",
            base: "Demo-fat",
            breakIt: { $0.patching32(36, 16384 + 4096, bigEndian: true) },
            structure: "fat arch table",
            offset: 8,
            says: "overlap"
        ),
        Hostile(
            name: "two slices of one CPU type",
            base: "Demo-fat",
            breakIt: { $0.patching32(8, 0x0100_000C, bigEndian: true).patching32(12, 0, bigEndian: true) },
            structure: "fat arch table",
            offset: 28,
            says: "repeats the CPU type"
        ),
        Hostile(
            name: "a slice of another CPU type than its fat entry",
            base: "Demo-fat",
            breakIt: { $0.patching32(8, 0x0100_0007, bigEndian: true) },
            structure: "Mach-O header",
            offset: 16384 + 4,
            says: "CPU type 16777223"
        ),
        Hostile(
            name: "a slice that is not Mach-O",
            base: "Demo-fat",
            breakIt: { $0.patching32(65536, 0x1234_5678) },
            structure: "Mach-O header",
            offset: 65536,
            says: "not a Mach-O image"
        ),
    ]

    @Test(arguments: cases)
    func refusesWithStructureAndOffset(_ hostile: Hostile) async throws {
        try await hostile.check { bytes throws(ArtifactError) in _ = try MachOFile(bytes: bytes, name: hostile.base) }
    }

    /// The same hostile files, fed through the streaming reader an archive uses, fail the same way.
    @Test(arguments: cases)
    func streamedRefusesAlike(_ hostile: Hostile) async throws {
        try await hostile.check { bytes throws(ArtifactError) in
            var stream = try MachOStream(size: bytes.count, name: hostile.base)
            var offset = 0
            while offset < bytes.count {
                try stream.consume(Array(bytes[offset..<min(bytes.count, offset + 4096)]))
                offset += 4096
            }
            _ = try stream.finish()
        }
    }

    /// The entitlement blobs: each slot must hold its own magic, once.
    @Test func entitlementSlotsHoldTheirOwnBlobs() async throws {
        let bytes = try await AppleArtifactFixtures.bytes("Demo-arm64")
        let index = (0..<5).map { entry in
            (
                slot: Self.read32(bytes, Self.signature + 12 + 8 * entry),
                offset: Self.signature + Int(Self.read32(bytes, Self.signature + 16 + 8 * entry))
            )
        }
        let xml = try #require(index.first { $0.slot == 5 }).offset
        let der = try #require(index.first { $0.slot == 7 }).offset
        for (broken, at, says) in [
            (bytes.patching32(xml, 0xFADE_7172, bigEndian: true), xml, "holds magic 0xfade7172"),
            (bytes.patching32(Self.signature + 12 + 8 * 3, 5, bigEndian: true), der, "holds magic 0xfade7172, not 0xfade7171"),
            (
                bytes.patching32(Self.signature + 12 + 8 * 1, 5, bigEndian: true).patching32(
                    Self.signature + 16 + 8 * 1,
                    UInt32(xml - Self.signature),
                    bigEndian: true
                ), xml, "a second entitlements blob"
            ),
        ] {
            do {
                _ = try MachOFile(bytes: broken, name: "broken")
                Issue.record("read without error: \(says)")
            } catch {
                #expect(error.structure == "code signature" && error.offset == at && error.message.contains(says), "\(error)")
            }
        }
    }

    /// Found by FuzzMachO: a certificate whose key the crypto library refuses gave a message that carried codes
    /// from a per-thread error queue, so the same bytes could fail with two messages. (The RSA exponent, DER
    /// `02 03 01 00 01`, is made even: ASN.1 reads it, the crypto library refuses the key.)
    @Test func aRefusedCertificateFailsTheSameWayEveryTime() async throws {
        var bytes = try await AppleArtifactFixtures.bytes("Demo-arm64")
        let exponent: [UInt8] = [0x02, 0x03, 0x01, 0x00, 0x01]
        while let found = bytes[Self.signature...].firstRange(of: exponent) { bytes.replaceSubrange(found, with: [0x02, 0x03, 0x01, 0x00, 0x00]) }
        var errors: [ArtifactError] = []
        for _ in 0..<3 {
            do {
                _ = try MachOFile(bytes: bytes, name: "Demo-arm64")
            } catch {
                errors.append(error)
            }
        }
        #expect(errors.count == 3)
        #expect(Set(errors).count == 1, "\(errors)")
        #expect(errors.first?.structure == "CMS SignedData")
        #expect(errors.first?.message.contains("a certificate cannot be read") == true, "\(errors)")
    }

    static func read32(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
        bytes[offset..<(offset + 4)].reduce(0) { $0 << 8 | UInt32($1) }
    }
}
