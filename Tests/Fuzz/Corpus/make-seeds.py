#!/usr/bin/env python3
"""Writes the fuzz targets' seed corpora (Tests/Fuzz/Corpus/<target>/) from inputs already in the repository:
docs/protocol.md's examples, the AASA conformance cases, Config/, the open-redirect corpus and the unit tests'
URLs. SOURCES.md beside this file says which input came from where. Run it from the repository root after any
of those change; the fuzzers never write here (scripts/fuzz copies the seeds into .build-fuzz first)."""
import hashlib, json, pathlib, re, shutil, subprocess, sys

root = pathlib.Path(__file__).resolve().parents[3]
out = root / "Tests/Fuzz/Corpus"


def write(target, items):
    folder = out / target
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    for item in dict.fromkeys(items):
        data = item if isinstance(item, bytes) else item.encode()
        (folder / hashlib.sha1(data).hexdigest()[:16]).write_bytes(data)


protocol_lines = [l for l in (root / "docs/protocol.md").read_text().splitlines() if l.startswith("{")]
requests = [l for l in protocol_lines if '"op"' in l and '"ok"' not in l and '"push"' not in l]
replies = [l for l in protocol_lines if l not in requests and "…" not in l]
fast_path_tests = (root / "Tests/AppFlipProtocolTests/RequestFastPathTests.swift").read_text()
requests += re.findall(r'#"(\{.*?)"#', fast_path_tests)
write("FuzzRequest", requests)
write("FuzzServerMessage", replies)

cases = json.loads((root / "Tests/AASACorpora/aasa-conformance/cases.json").read_text())["matching"]
aasas = [json.dumps(case["aasa"]).encode() + b"\0" + case["url"].encode() for case in cases[::4]]
aasas += [p.read_bytes() for p in (root / "Config").glob("*.apple-app-site-association")]
write("FuzzAASA", aasas)

unit_urls = re.findall(r'"(https?://[^"]*)"', (root / "Tests/AppFlipCoreTests/RawURLTests.swift").read_text())
redirects = (root / "Tests/AppFlipCoreTests/Corpora/open-redirect/openredirects.txt").read_text().splitlines()
urls = unit_urls + ["https://example.com" + path for path in redirects[:40] if path.startswith("/")]
urls += [case["url"] for case in cases[::7]]
write("FuzzRawURL", urls)

partners = ["https://partner.test/flip", "https://partner.test/a?x=1#frag", "https://p.test/?", "https://p.test/?client_id=dup"]
write(
    "FuzzFlipLink",
    [f"{p}\0client-1\0openid profile\0st=a&b\0https://oauth-redirect.googleusercontent.com/a/com.google.OPA" for p in partners]
    + ["https://p.test/?client_id=a&scope=b+c&state=%E2%82%AC&redirect_uri=https%3A%2F%2Fx"],
)

queries = ["a=1&b=2", "a=1&&b=2&=&c", "x=%41%zz", "q=a+b%2Bc", "name=%E2%82%AC\nvalue=%26%3D", "%", "%4", "+%20+"]
write("FuzzPercentForm", queries + [p for p in redirects[:20]])

frames = [b"\x10\x03" + "\n".join(requests[:4]).encode() + b"\n", b"\x05\x01abc\ndefghij\nk", b"\x85\x07\n\n\nxx"]
write("FuzzLineFramer", frames)

# The iOS artifact readers' seeds: small artifacts of each kind, built to Apple's layouts by their own script.
subprocess.run([sys.executable, str(root / "Tests/AppleArtifacts/make_ios_artifacts.py"), "--fuzz-seeds", str(out)], check=True)
