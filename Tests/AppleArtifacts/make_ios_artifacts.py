#!/usr/bin/env python3
"""Builds iOS artifacts to Apple's documented layout, for the tests of AppFlipArtifacts (Apple/):

  make_ios_artifacts.py OUT_DIR                      every artifact below, in OUT_DIR
  make_ios_artifacts.py --large-ipa FILE MEGABYTES   one .ipa of about MEGABYTES, its executable most of it
  make_ios_artifacts.py --fuzz-seeds CORPUS          small ones, as the seeds of CORPUS/Fuzz{MachO,IPA,…}
  make_ios_artifacts.py --app FILE APP_ID KIND [DOMAIN…]
                                                     one .ipa of app APP_ID (TEAM.bundle) claiming the DOMAINs
                                                     (`applinks:host[?mode=…]`), with a KIND profile (development,
                                                     adhoc, enterprise, appstore, expired): what `appflip audit
                                                     --app` is tested and demonstrated with

Nothing here is signed by Apple: a certificate authority made on the spot stands in for Apple's, so the files
have Apple's structure, not Apple's trust. What each file is, and the source of its layout:

- `development`, `adhoc`, `enterprise`, `appstore` and `expired.mobileprovision`: an XML property list signed
  with `openssl cms -sign -nodetach -outform DER`, the container of Apple's provisioning profiles (TN3125,
  "Inside Code Signing: Provisioning Profiles"). `appstore` is signed with `-stream`, which writes indefinite
  lengths (BER), as Apple's own profiles are encoded; the others are DER.
- `Demo.entitlements`, `Info.plist` (XML) and `Info.binary.plist` (binary): property lists from `plistlib`.
- `Demo-arm64`: a thin arm64 Mach-O executable (<mach-o/loader.h>), `Demo-fat` a universal one (armv7 and
  arm64, <mach-o/fat.h>). Each has an LC_CODE_SIGNATURE whose SuperBlob (xnu's osfmk/kern/cs_blobs.h) holds a
  CodeDirectory (version 0x20400, SHA-256 page hashes, the identifier and the team), an empty requirements
  vector, the entitlements as XML (0xfade7171) and as DER (0xfade7172, encoded as Apple's `codesign` does:
  indygreg/apple-platform-rs, apple-codesign/src/entitlements.rs) and a detached CMS signature of the
  CodeDirectory in a blob wrapper (0xfade0b01).
- `Demo.ipa`: `Payload/Demo.app/` with the binary Info.plist, the development profile and the fat executable;
  `Demo-zip64.ipa` the thin one among 70,000 files, which takes the ZIP64 end records (APPNOTE.TXT 4.3.14).
- `hostile/*.ipa`: archives a reader must refuse (named for what is wrong with them).
"""
import datetime
import hashlib
import os
import pathlib
import plistlib
import struct
import subprocess
import sys
import tempfile
import warnings
import zipfile
import zlib

TEAM = "ABCDE12345"
BUNDLE = "com.example.demo"
APP_ID = f"{TEAM}.{BUNDLE}"
DEVICES = ["00008030-001A2D3C0E88802E", "00008101-000A1B2C3D4E5F60", "c0ffee00c0ffee00c0ffee00c0ffee00c0ffee00"]
DOMAINS = [
    "applinks:example.com",
    "applinks:*.example.com?mode=developer",
    "applinks:flip.example.com?mode=developer+managed",
    "webcredentials:example.com",
    "activitycontinuation:example.com",
]
NOW = datetime.datetime.now(datetime.timezone.utc).replace(microsecond=0, tzinfo=None)


def run(*args, **kwargs):
    return subprocess.run(args, check=True, capture_output=True, **kwargs).stdout


# MARK: Certificates: a stand-in for Apple's CA, the profile signer, and a developer and a distribution identity.


def make_pki(folder):
    def cert(name, subject, issuer=None, days=3650):
        key, pem = folder / f"{name}.key", folder / f"{name}.pem"
        run("openssl", "req", "-new", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-subj", subject,
            "-out", folder / f"{name}.csr")
        if issuer is None:
            run("openssl", "x509", "-req", "-in", folder / f"{name}.csr", "-signkey", key, "-days", str(days), "-out", pem)
        else:
            run("openssl", "x509", "-req", "-in", folder / f"{name}.csr", "-CA", folder / f"{issuer}.pem",
                "-CAkey", folder / f"{issuer}.key", "-CAcreateserial", "-days", str(days), "-out", pem)
        return key, pem

    cert("ca", "/CN=appflipd test Apple Root CA/O=appflipd tests/C=US")
    cert("profile-signer", "/CN=appflipd test iPhone OS Provisioning Profile Signing/O=appflipd tests/C=US", "ca")
    cert("developer", f"/UID=DEVUID0001/CN=Apple Development: Test Developer (DEVTEAM001)/OU={TEAM}/O=Example Inc./C=US", "ca")
    cert("distribution", f"/UID=DISTUID001/CN=Apple Distribution: Example Inc. ({TEAM})/OU={TEAM}/O=Example Inc./C=US", "ca")


def der_certificate(folder, name):
    return run("openssl", "x509", "-in", folder / f"{name}.pem", "-outform", "DER")


# MARK: Provisioning profiles.


def profile_plist(pki, kind):
    development = kind in ("development", "expired")
    created = NOW - datetime.timedelta(days=400 if kind == "expired" else 10)
    expires = created + datetime.timedelta(days=365)
    entitlements = {
        "application-identifier": APP_ID,
        "keychain-access-groups": [f"{TEAM}.*", "com.apple.token"],
        "get-task-allow": development,
        "com.apple.developer.team-identifier": TEAM,
        "com.apple.developer.associated-domains": "*",
        "aps-environment": "development" if development else "production",
    }
    if kind == "appstore":
        entitlements["beta-reports-active"] = True
    profile = {
        "AppIDName": "Demo",
        "ApplicationIdentifierPrefix": [TEAM],
        "CreationDate": created,
        "Platform": ["iOS", "xrOS", "visionOS"],
        "IsXcodeManaged": False,
        "DeveloperCertificates": [der_certificate(pki, "developer" if development else "distribution")],
        "Entitlements": entitlements,
        "ExpirationDate": expires,
        "Name": f"Demo {kind}",
        "TeamIdentifier": [TEAM],
        "TeamName": "Example Inc.",
        "TimeToLive": 365,
        "UUID": {"development": "0e8c2a6e-0d0f-4c5e-9a43-6f1c7e2b9d01", "adhoc": "1f9d3b7f-1e1a-4d6f-8b54-7a2d8f3cae12",
                 "enterprise": "2a0e4c80-2f2b-4e70-9c65-8b3e9a4dbf23", "appstore": "3b1f5d91-3a3c-4f81-8d76-9c4fab5ec034",
                 "expired": "4c2a6ea2-4b4d-4a92-9e87-ad50bc6fd145"}[kind],
        "Version": 1,
    }
    if kind in ("development", "adhoc", "expired"):
        profile["ProvisionedDevices"] = DEVICES
    if kind == "enterprise":
        profile["ProvisionsAllDevices"] = True
    return plistlib.dumps(profile)


def sign_profile(pki, content, out, stream=False):
    with tempfile.NamedTemporaryFile() as plain:
        plain.write(content)
        plain.flush()
        args = ["openssl", "cms", "-sign", "-nodetach", "-binary", "-outform", "DER", "-in", plain.name,
                "-signer", pki / "profile-signer.pem", "-inkey", pki / "profile-signer.key", "-certfile", pki / "ca.pem",
                "-out", out]
        if stream:
            args.append("-stream")
        run(*args)


# MARK: DER entitlements, as `codesign --generate-entitlement-der` writes them.


def der_tlv(tag, body):
    length = len(body)
    if length < 0x80:
        head = bytes([length])
    else:
        octets = length.to_bytes((length.bit_length() + 7) // 8, "big")
        head = bytes([0x80 | len(octets)]) + octets
    return bytes(tag) + head + body


def der_value(value):
    if isinstance(value, bool):
        return der_tlv([0x01], b"\xff" if value else b"\x00")
    if isinstance(value, int):
        return der_tlv([0x02], value.to_bytes(max(1, (value.bit_length() + 8) // 8), "big", signed=True))
    if isinstance(value, str):
        return der_tlv([0x0C], value.encode())
    if isinstance(value, list):
        return der_tlv([0x30], b"".join(der_value(item) for item in value))
    if isinstance(value, dict):
        pairs = (der_tlv([0x30], der_value(key) + der_value(value[key])) for key in sorted(value))
        return der_tlv([0xB0], b"".join(pairs))  # [CONTEXT 16] constructed
    raise TypeError(value)


def der_entitlements(entitlements):
    return der_tlv([0x70], der_value(1) + der_value(entitlements))  # [APPLICATION 16] constructed


# MARK: Mach-O with an embedded code signature.

CPU_ARM, CPU_ARM64, ARMV7 = 12, 0x0100000C, 9
PAGE, CS_PAGE = 0x4000, 4096


def blob(magic, payload):
    return struct.pack(">II", magic, 8 + len(payload)) + payload


def code_directory(identifier, team, pages, special):
    """A CodeDirectory, version 0x20400, SHA-256: `special` maps a slot number to the hash of its blob."""
    n_special = max(special)
    header_size = 88  # through execSegFlags
    ident_offset = header_size
    team_offset = ident_offset + len(identifier) + 1
    hash_offset = team_offset + len(team) + 1 + 32 * n_special
    hashes = b"".join(special.get(slot, bytes(32)) for slot in range(n_special, 0, -1))
    hashes += b"".join(hashlib.sha256(page).digest() for page in pages)
    code_limit = sum(len(page) for page in pages)
    # version, flags, hashOffset, identOffset, nSpecialSlots, nCodeSlots, codeLimit; hashSize, hashType, platform,
    # pageSize; spare2, scatterOffset, teamOffset, spare3; codeLimit64, execSegBase, execSegLimit, execSegFlags.
    fields = struct.pack(
        ">7I4B4I4Q",
        0x20400, 0, hash_offset, ident_offset, n_special, len(pages), code_limit, 32, 2, 0, 12,
        0, 0, team_offset, 0, 0, 0, code_limit, 1)
    body = fields + identifier.encode() + b"\0" + team.encode() + b"\0" + hashes
    return blob(0xFADE0C02, body)


def cms_signature(pki, data):
    with tempfile.NamedTemporaryFile() as plain:
        plain.write(data)
        plain.flush()
        return run("openssl", "cms", "-sign", "-binary", "-outform", "DER", "-in", plain.name, "-signer",
                   pki / "developer.pem", "-inkey", pki / "developer.key", "-certfile", pki / "ca.pem")


def super_blob(slots):
    index = b""
    offset = 12 + 8 * len(slots)
    for slot, payload in slots:
        index += struct.pack(">II", slot, offset)
        offset += len(payload)
    return struct.pack(">III", 0xFADE0CC0, offset, len(slots)) + index + b"".join(payload for _, payload in slots)


def signature(pki, image, entitlements, info_plist):
    """The SuperBlob for `image` (the slice's bytes up to its signature)."""
    xml = blob(0xFADE7171, plistlib.dumps(entitlements))
    der = blob(0xFADE7172, der_entitlements(entitlements))
    requirements = struct.pack(">III", 0xFADE0C01, 12, 0)
    special = {
        1: hashlib.sha256(info_plist).digest(),
        2: hashlib.sha256(requirements).digest(),
        5: hashlib.sha256(xml).digest(),
        7: hashlib.sha256(der).digest(),
    }
    pages = [image[i:i + CS_PAGE] for i in range(0, len(image), CS_PAGE)]
    cd = code_directory(BUNDLE, TEAM, pages, special)
    cms = blob(0xFADE0B01, cms_signature(pki, cd) if pki else b"")
    return super_blob([(0, cd), (2, requirements), (5, xml), (7, der), (0x10000, cms)])


def segment(is64, name, vmaddr, vmsize, fileoff, filesize, prot, sections=()):
    if is64:
        head = struct.pack("<II16sQQQQiiII", 0x19, 72 + 80 * len(sections), name.encode(), vmaddr, vmsize, fileoff,
                           filesize, prot, prot, len(sections), 0)
        body = b"".join(struct.pack("<16s16sQQIIIIIIII", sect.encode(), name.encode(), vmaddr + off, size, fileoff + off,
                                    2, 0, 0, 0x80000400, 0, 0, 0) for sect, off, size in sections)
    else:
        head = struct.pack("<II16sIIIIiiII", 0x1, 56 + 68 * len(sections), name.encode(), vmaddr, vmsize, fileoff,
                           filesize, prot, prot, len(sections), 0)
        body = b"".join(struct.pack("<16s16sIIIIIIIII", sect.encode(), name.encode(), vmaddr + off, size, fileoff + off,
                                    2, 0, 0, 0x80000400, 0, 0) for sect, off, size in sections)
    return head + body


def macho(pki, is64, entitlements, info_plist, text_size=PAGE, text_bytes=None, page=PAGE):
    """A minimal MH_EXECUTE for iOS: __PAGEZERO, __TEXT, __LINKEDIT, LC_BUILD_VERSION, LC_CODE_SIGNATURE; segments
    aligned to `page` (16 KiB on arm64; the fuzz seeds use 4 KiB to stay small)."""
    header_size = 32 if is64 else 28
    text = text_bytes if text_bytes is not None else (b"\x1f\x20\x03\xd5" * (text_size // 4))  # arm64 `nop`
    text_file_size = -(-(header_size + 1024 + len(text)) // page) * page
    code_offset = text_file_size - len(text)
    linkedit_offset = text_file_size
    # The signature's size must be known before the pages it hashes (which include this header) are: reserve
    # room as codesign does; the SuperBlob's own length says how much is used.
    probe = signature(None, bytes(linkedit_offset), entitlements, info_plist)
    reserved = -(-(len(probe) + 4096) // 16) * 16
    pagezero = 0x100000000 if is64 else 0x4000
    build_version = struct.pack("<IIIIII", 0x32, 24, 2, 15 << 16, 17 << 16, 0)  # platform iOS, minos 15.0, sdk 17.0
    commands = [
        segment(is64, "__PAGEZERO", 0, pagezero, 0, 0, 0),
        segment(is64, "__TEXT", pagezero, text_file_size, 0, text_file_size, 5, [("__text", code_offset, len(text))]),
        segment(is64, "__LINKEDIT", pagezero + text_file_size, -(-reserved // page) * page, linkedit_offset, reserved, 1),
        build_version,
        struct.pack("<IIII", 0x1D, 16, linkedit_offset, reserved),
    ]
    sizeofcmds = sum(len(command) for command in commands)
    cputype, subtype = (CPU_ARM64, 0) if is64 else (CPU_ARM, ARMV7)
    magic = 0xFEEDFACF if is64 else 0xFEEDFACE
    header = struct.pack("<IiiIIII", magic, cputype, subtype, 2, len(commands), sizeofcmds, 0x00200085)
    if is64:
        header += b"\0\0\0\0"
    image = bytearray(header + b"".join(commands))
    image += bytes(code_offset - len(image))
    image += text
    signed = signature(pki, bytes(image), entitlements, info_plist)
    assert len(signed) <= reserved, (len(signed), reserved)
    return bytes(image) + signed + bytes(reserved - len(signed))


def fat(slices, page=PAGE):
    """A universal binary: FAT_MAGIC, big-endian fat_arch entries, each slice aligned to `page`."""
    header = struct.pack(">II", 0xCAFEBABE, len(slices))
    offset = page
    arches, body = b"", b""
    for cputype, subtype, data in slices:
        arches += struct.pack(">iiIII", cputype, subtype, offset, len(data), page.bit_length() - 1)
        padding = -(-len(data) // page) * page - len(data)
        body += data + bytes(padding)
        offset += len(data) + padding
    head = header + arches
    return head + bytes(page - len(head)) + body


# MARK: Property lists and the archive.


def app_entitlements():
    return {
        "application-identifier": APP_ID,
        "com.apple.developer.team-identifier": TEAM,
        "get-task-allow": True,
        "keychain-access-groups": [APP_ID],
        "com.apple.developer.associated-domains": DOMAINS,
    }


def info_plist():
    return {
        "CFBundleIdentifier": BUNDLE,
        "CFBundleExecutable": "Demo",
        "CFBundleName": "Demo",
        "CFBundlePackageType": "APPL",
        "CFBundleShortVersionString": "1.2",
        "CFBundleVersion": "42",
        "MinimumOSVersion": "15.0",
        "CFBundleSupportedPlatforms": ["iPhoneOS"],
    }


def write_ipa(path, info, profile, executable, extra=(), compression=zipfile.ZIP_DEFLATED, level=6):
    with zipfile.ZipFile(path, "w", compression, compresslevel=level) as archive:
        archive.writestr(zipfile.ZipInfo("Payload/"), b"")
        archive.writestr(zipfile.ZipInfo("Payload/Demo.app/"), b"")
        archive.writestr("Payload/Demo.app/Info.plist", info)
        if profile is not None:
            archive.writestr("Payload/Demo.app/embedded.mobileprovision", profile)
        archive.writestr("Payload/Demo.app/Demo", executable)
        archive.writestr("Payload/Demo.app/_CodeSignature/CodeResources", plistlib.dumps({"files": {}}))
        for name, data, method in extra:
            archive.writestr(zipfile.ZipInfo(name), data, compress_type=method)


def hostile_archives(folder, info, profile, executable):
    folder.mkdir(exist_ok=True)
    # An entry named to escape the folder it would be extracted to.
    write_ipa(folder / "dot-dot.ipa", info, profile, executable, [("Payload/Demo.app/../../evil", b"x", zipfile.ZIP_STORED)])
    # Info.plist inflates to 64 MiB of zeros (about 64 KiB compressed), over the plist limit.
    with zipfile.ZipFile(folder / "bomb-declared.ipa", "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("Payload/Demo.app/Info.plist", bytes(64 << 20))
    # The same deflate stream, but the central directory claims 300 bytes: the inflater must stop at 300.
    raw = zlib.compressobj(9, zlib.DEFLATED, -15)
    bomb = raw.compress(bytes(64 << 20)) + raw.flush()
    liar = lying_zip("Payload/Demo.app/Info.plist", bomb, 300, zlib.crc32(bytes(300)))
    (folder / "bomb-lying.ipa").write_bytes(liar)
    # A deflate stream that never ends: a non-final stored block that claims 65535 bytes, 1000 of them, then the end
    # of the entry (its declared size within 200 times its compressed size, the archive's ratio bound).
    (folder / "endless-deflate.ipa").write_bytes(lying_zip("Payload/Demo.app/Info.plist", b"\x00\xff\xff\x00\x00" + b"a" * 1000, 100000, 0))
    # A stored Info.plist whose bytes do not match the CRC-32 the archive declares.
    plain = bytearray(stored_ipa(info))
    at = plain.index(b"bplist00")
    plain[at + 8] ^= 0xFF
    (folder / "crc.ipa").write_bytes(plain)
    # The local header names another file than the central directory does.
    renamed = bytearray(stored_ipa(info))
    at = renamed.index(b"Payload/Demo.app/Info.plist")
    renamed[at + len("Payload/Demo.app/")] = ord("X")
    (folder / "local-name.ipa").write_bytes(renamed)
    # Two entries with the same name: which one a reader takes would be a choice.
    warnings.filterwarnings("ignore", "Duplicate name", UserWarning)
    with zipfile.ZipFile(folder / "duplicate.ipa", "w") as archive:
        archive.writestr("Payload/Demo.app/Info.plist", info)
        archive.writestr("Payload/Demo.app/Info.plist", plistlib.dumps({"CFBundleIdentifier": "evil"}))
    # No app in Payload/.
    with zipfile.ZipFile(folder / "no-app.ipa", "w") as archive:
        archive.writestr("Payload/readme.txt", b"nothing")
    # The archive cut in the middle of its central directory.
    whole = (folder.parent / "Demo.ipa").read_bytes()
    (folder / "truncated.ipa").write_bytes(whole[: len(whole) - 40])


def stored_ipa(info):
    with tempfile.NamedTemporaryFile() as scratch:
        with zipfile.ZipFile(scratch.name, "w", zipfile.ZIP_STORED) as archive:
            archive.writestr("Payload/Demo.app/Info.plist", info)
        return pathlib.Path(scratch.name).read_bytes()


def zip64_ipa(path, info, profile, executable):
    """The app among 70,000 empty files: more entries than the classic end record can count, so Python writes the
    ZIP64 end of central directory record and its locator."""
    extra = [(f"Payload/Demo.app/Files/{index}", b"", zipfile.ZIP_STORED) for index in range(70000)]
    write_ipa(path, info, profile, executable, extra)


def lying_zip(name, data, uncompressed_size, crc):
    """One deflated entry whose sizes are written by hand, with no check that they are true."""
    name = name.encode()
    local = struct.pack("<IHHHHHIIIHH", 0x04034B50, 20, 0, 8, 0, 0, crc, len(data), uncompressed_size, len(name), 0)
    central = struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, 20, 20, 0, 8, 0, 0, crc, len(data), uncompressed_size,
                          len(name), 0, 0, 0, 0, 0, 0)
    body = local + name + data
    directory = central + name
    end = struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, 1, 1, len(directory), len(body), 0)
    return body + directory + end


def build_all(out):
    out.mkdir(parents=True, exist_ok=True)
    pki = out / "pki"
    pki.mkdir(exist_ok=True)
    make_pki(pki)
    for kind in ("development", "adhoc", "enterprise", "appstore", "expired"):
        sign_profile(pki, profile_plist(pki, kind), out / f"{kind}.mobileprovision", stream=kind == "appstore")
    entitlements = app_entitlements()
    (out / "Demo.entitlements").write_bytes(plistlib.dumps(entitlements))
    info = info_plist()
    (out / "Info.plist").write_bytes(plistlib.dumps(info))
    binary_info = plistlib.dumps(info, fmt=plistlib.FMT_BINARY)
    (out / "Info.binary.plist").write_bytes(binary_info)
    arm64 = macho(pki, True, entitlements, binary_info)
    armv7 = macho(pki, False, entitlements, binary_info)
    (out / "Demo-arm64").write_bytes(arm64)
    (out / "Demo-fat").write_bytes(fat([(CPU_ARM, ARMV7, armv7), (CPU_ARM64, 0, arm64)]))
    write_ipa(out / "Demo.ipa", binary_info, (out / "development.mobileprovision").read_bytes(), (out / "Demo-fat").read_bytes())
    zip64_ipa(out / "Demo-zip64.ipa", binary_info, None, arm64)
    hostile_archives(out / "hostile", binary_info, (out / "development.mobileprovision").read_bytes(), arm64)


def build_large(path, megabytes):
    """An .ipa of about `megabytes`: an executable of three fifths of it (incompressible __TEXT) and stored resources."""
    with tempfile.TemporaryDirectory() as scratch:
        pki = pathlib.Path(scratch)
        make_pki(pki)
        info = plistlib.dumps(info_plist(), fmt=plistlib.FMT_BINARY)
        profile = pki / "profile"
        sign_profile(pki, profile_plist(pki, "appstore"), profile, stream=True)
        text_size = megabytes * 3 // 5 << 20
        executable = macho(pki, True, app_entitlements(), info, text_bytes=os.urandom(text_size))
        resources = [(f"Payload/Demo.app/Assets/{index}.bin", os.urandom(1 << 20), zipfile.ZIP_STORED)
                     for index in range(megabytes * 2 // 5)]
        write_ipa(path, info, profile.read_bytes(), executable, resources, level=1)


def fuzz_seeds(corpus):
    """Small artifacts of each kind for the fuzz targets' seed corpora (Tests/Fuzz/Corpus/<target>)."""
    with tempfile.TemporaryDirectory() as scratch:
        pki = pathlib.Path(scratch)
        make_pki(pki)
        info = plistlib.dumps(info_plist(), fmt=plistlib.FMT_BINARY)
        entitlements = app_entitlements()
        arm64 = macho(pki, True, entitlements, info, text_size=64, page=4096)
        armv7 = macho(pki, False, entitlements, info, text_size=64, page=4096)
        profiles = []
        for kind, stream in (("development", False), ("appstore", True)):
            sign_profile(pki, profile_plist(pki, kind), pki / kind, stream=stream)
            profiles.append((pki / kind).read_bytes())
        write_ipa(pki / "seed.ipa", info, profiles[0], arm64)
        write_ipa(pki / "stored.ipa", info, None, arm64, compression=zipfile.ZIP_STORED)
        seeds = {
            "FuzzMachO": [arm64, fat([(CPU_ARM, ARMV7, armv7), (CPU_ARM64, 0, arm64)], page=4096)],
            "FuzzProvisioningProfile": profiles,
            "FuzzPropertyList": [info, plistlib.dumps(info_plist()), plistlib.dumps(entitlements)],
            "FuzzIPA": [(pki / "seed.ipa").read_bytes(), (pki / "stored.ipa").read_bytes(),
                        lying_zip("Payload/Demo.app/Info.plist", b"\x00\xff\xff\x00\x00abc", 100000, 0)],
        }
    for target, items in seeds.items():
        folder = corpus / target
        folder.mkdir(parents=True, exist_ok=True)
        for old in folder.iterdir():
            old.unlink()
        for item in items:
            (folder / hashlib.sha1(item).hexdigest()[:16]).write_bytes(item)


def build_app(path, app_id, kind, domains):
    """One .ipa for the audit: the layout of `Demo.ipa`, for another app ID, domains and profile kind."""
    global TEAM, BUNDLE, APP_ID, DOMAINS
    TEAM, BUNDLE = app_id.split(".", 1)
    APP_ID, DOMAINS = app_id, domains
    with tempfile.TemporaryDirectory() as scratch:
        pki = pathlib.Path(scratch)
        make_pki(pki)
        sign_profile(pki, profile_plist(pki, kind), pki / "embedded.mobileprovision", stream=kind == "appstore")
        entitlements = app_entitlements()
        entitlements["get-task-allow"] = kind in ("development", "expired")
        info = plistlib.dumps(info_plist(), fmt=plistlib.FMT_BINARY)
        write_ipa(path, info, (pki / "embedded.mobileprovision").read_bytes(), macho(pki, True, entitlements, info))


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--fuzz-seeds":
        fuzz_seeds(pathlib.Path(sys.argv[2]))
    elif len(sys.argv) == 4 and sys.argv[1] == "--large-ipa":
        build_large(pathlib.Path(sys.argv[2]), int(sys.argv[3]))
    elif len(sys.argv) >= 5 and sys.argv[1] == "--app":
        build_app(pathlib.Path(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5:])
    elif len(sys.argv) == 2:
        build_all(pathlib.Path(sys.argv[1]))
    else:
        sys.exit(__doc__)
