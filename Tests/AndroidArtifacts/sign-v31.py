#!/usr/bin/env python3
"""Writes an APK with an APK Signature Scheme v3.1 block, to the layout apksig's V3SchemeSigner writes from
its version 33 (source.android.com/docs/security/features/apksigning/v3-1), which Debian's apksigner (0.9)
cannot write.

From an APK that apksigner signed with a rotated lineage (v2 by the old key, v3 by the new key with the
lineage), it keeps the v2 block and writes:
  - a v3 block signed by the old key for SDK versions up to 32, carrying ROTATION_MIN_SDK_VERSION (33);
  - a v3.1 block signed by the new key from SDK 33, carrying the lineage.
Both signers reuse the content digests of the original v3 signer: the entries, central directory and end
record they cover do not change (the signing block is not digested). Signatures are RSASSA-PKCS1-v1_5 with
SHA-256 (algorithm 0x0103), made with openssl.

It also writes a copy whose v3.1 block stands under the v3 ID, so that apksigner, which reads v3, verifies the
v3.1 signer, its digests and its lineage.

usage: sign-v31.py ROTATED.apk OLD-KEY.pem NEW-KEY.pem OUT.apk OUT-AS-V3.apk
"""
import struct
import subprocess
import sys

V2, V3, V31 = 0x7109871A, 0xF05368C0, 0x1B93AD61
PROOF_OF_ROTATION, ROTATION_MIN_SDK = 0x3BA06F8C, 0x559F8B02
RSA_PKCS1_SHA256 = 0x0103
ROTATION_SDK, MAX_SDK = 33, 0x7FFFFFFF
MAGIC = b"APK Sig Block 42"


def lp(data):
    return struct.pack("<I", len(data)) + data


def read_lp(data, offset):
    (length,) = struct.unpack_from("<I", data, offset)
    return data[offset + 4 : offset + 4 + length], offset + 4 + length


def sequence(data):
    items, offset = [], 0
    while offset < len(data):
        item, offset = read_lp(data, offset)
        items.append(item)
    return items


def sign(key, data):
    return subprocess.run(["openssl", "dgst", "-sha256", "-sign", key], input=data, capture_output=True, check=True).stdout


def sections(apk):
    eocd = len(apk) - 22
    assert apk[eocd : eocd + 4] == b"PK\x05\x06", "an archive comment is not expected"
    (cd_offset,) = struct.unpack_from("<I", apk, eocd + 16)
    assert apk[cd_offset - 16 : cd_offset] == MAGIC, "no APK Signing Block"
    (size,) = struct.unpack_from("<Q", apk, cd_offset - 24)
    start = cd_offset - size - 8
    pairs, offset = {}, start + 8
    while offset < cd_offset - 24:
        (length,) = struct.unpack_from("<Q", apk, offset)
        (pair_id,) = struct.unpack_from("<I", apk, offset + 8)
        pairs[pair_id] = apk[offset + 12 : offset + 8 + length]
        offset += 8 + length
    return start, cd_offset, eocd, pairs


def signer_parts(block):
    """The single signer of a v2 or v3 block: signed data, its fields, and the public key."""
    (signer,) = sequence(read_lp(block, 0)[0])
    signed_data, offset = read_lp(signer, 0)
    digests, at = read_lp(signed_data, 0)
    certificates, at = read_lp(signed_data, at)
    return signed_data, digests, sequence(certificates)[0], at, signer, offset


def v3_signer(key, digests, certificate, min_sdk, max_sdk, attributes, public_key):
    signed_data = lp(digests) + lp(lp(certificate)) + struct.pack("<II", min_sdk, max_sdk)
    signed_data += lp(b"".join(lp(struct.pack("<I", attr_id) + value) for attr_id, value in attributes))
    signature = lp(lp(struct.pack("<I", RSA_PKCS1_SHA256) + lp(sign(key, signed_data))))
    signer = lp(signed_data) + struct.pack("<II", min_sdk, max_sdk) + signature + lp(public_key)
    return lp(lp(signer))


def block(pairs):
    body = b"".join(struct.pack("<QI", len(value) + 4, pair_id) + value for pair_id, value in pairs)
    size = len(body) + 8 + 16
    return struct.pack("<Q", size) + body + struct.pack("<Q", size) + MAGIC


def write(path, apk, start, cd_offset, eocd, signing_block):
    new_cd = start + len(signing_block)
    end = bytearray(apk[eocd:])
    struct.pack_into("<I", end, 16, new_cd)
    with open(path, "wb") as out:
        out.write(apk[:start] + signing_block + apk[cd_offset:eocd] + bytes(end))


def main():
    rotated, old_key, new_key, out, out_as_v3 = sys.argv[1:6]
    apk = open(rotated, "rb").read()
    start, cd_offset, eocd, pairs = sections(apk)
    _, _, old_certificate, _, v2_signer, offset = signer_parts(pairs[V2])
    _, v2_offset = read_lp(v2_signer, offset)
    old_public_key = read_lp(v2_signer, v2_offset)[0]
    signed_data, digests, new_certificate, at, v3_signer_bytes, offset = signer_parts(pairs[V3])
    (min_sdk,) = struct.unpack_from("<I", signed_data, at)
    attributes = sequence(read_lp(signed_data, at + 8)[0])
    lineage = next(a[4:] for a in attributes if struct.unpack_from("<I", a)[0] == PROOF_OF_ROTATION)
    _, offset = read_lp(v3_signer_bytes, offset + 8)
    new_public_key = read_lp(v3_signer_bytes, offset)[0]

    v3 = v3_signer(old_key, digests, old_certificate, min(min_sdk, ROTATION_SDK - 1), ROTATION_SDK - 1,
                   [(ROTATION_MIN_SDK, struct.pack("<I", ROTATION_SDK))], old_public_key)
    v31 = v3_signer(new_key, digests, new_certificate, ROTATION_SDK, MAX_SDK, [(PROOF_OF_ROTATION, lineage)], new_public_key)
    write(out, apk, start, cd_offset, eocd, block([(V2, pairs[V2]), (V3, v3), (V31, v31)]))
    write(out_as_v3, apk, start, cd_offset, eocd, block([(V2, pairs[V2]), (V3, v31)]))


if __name__ == "__main__":
    main()
