"""Checks an HTTP Archive that `appflip audit --har` wrote, and prints what it found as JSON on stdout:
    python har_check.py FILE [SECRETS_FILE]

- `schemaErrors`: each error of the file against HAR 1.2's JSON Schema (har-1.2.schema.json beside this
  script), by jsonschema's Draft 2020-12 validator, and each break of the rules a schema cannot say: an
  entry's `time` is the sum of its timings that are not -1, and the entries are in the order they started;
- `reader`: the file as haralyzer (an independent HAR reader from PyPI) loads it: the entries of its one
  page (the entries without a page), each with its method, URL, status, start time and time;
- `entries`: each entry's `_appflipExchange` and `_appflipFindings`, and `findings`: the log's
  `_appflipFindings` (`id`, `outcome`, `_entries`);
- `secretsFound`: for each line of SECRETS_FILE (one secret a line, never on the command line), every form
  of it found anywhere in the file: raw, percent-encoded (strictly and as a form), base64 and base64url
  (with and without padding, and at the three offsets a base64 run can start at inside a longer encoding,
  as in an HTTP Basic credential).
"""
import base64
import json
import pathlib
import sys
import urllib.parse

import jsonschema
from haralyzer import HarParser

here = pathlib.Path(__file__).resolve().parent
raw = pathlib.Path(sys.argv[1]).read_bytes()
text = raw.decode("utf-8")
har = json.loads(text)

schema = json.loads((here / "har-1.2.schema.json").read_text())
validator = jsonschema.Draft202012Validator(schema)
errors = [f"{'/'.join(str(p) for p in error.absolute_path)}: {error.message}" for error in validator.iter_errors(har)]
entries = har.get("log", {}).get("entries", [])
for index, entry in enumerate(entries):
    timings = entry.get("timings", {})
    total = sum(value for key, value in timings.items() if key != "comment" and not key.startswith("_") and value != -1)
    if abs(total - entry.get("time", 0)) > 0.001:
        errors.append(f"log/entries/{index}: time {entry.get('time')} is not the sum of its timings, {total}")
started = [entry.get("startedDateTime", "") for entry in entries]

parser = HarParser(har)
pages = parser.pages
read = [
    {
        "method": e.request.method,
        "url": e.request.url,
        "status": e.response.status,
        "startTime": e.startTime.isoformat() if e.startTime else None,
        "time": e.time,
    }
    for page in pages
    for e in page.entries
]
times = [entry["startTime"] for entry in read]
if any(time is None for time in times):
    errors.append("haralyzer could not read an entry's startedDateTime")
elif times != sorted(times):
    errors.append("the entries are not in the order they started")


def forms(secret: str) -> dict:
    data = secret.encode()
    found = {
        "raw": secret,
        "percent-encoded": urllib.parse.quote(secret, safe=""),
        "form-encoded": urllib.parse.quote_plus(secret, safe=""),
    }
    for offset in range(3):
        # The secret inside a longer base64 run (a Basic credential's "id:secret") starts at one of three
        # alignments: the characters that also hold bits of its neighbours are dropped, the first 0, 2 or 3
        # and, when its last group is incomplete, the last one.
        encoded = base64.b64encode(b"\0" * offset + data).decode().rstrip("=")
        core = encoded[(0, 2, 3)[offset] :]
        if (offset + len(data)) % 3:
            core = core[:-1]
        if len(core) >= 8:
            found[f"base64@{offset}"] = core
            found[f"base64url@{offset}"] = core.replace("+", "-").replace("/", "_")
    found["base64"] = base64.b64encode(data).decode()
    found["base64url"] = base64.urlsafe_b64encode(data).decode().rstrip("=")
    return found


secrets_found = []
if len(sys.argv) > 2:
    secrets = [line for line in pathlib.Path(sys.argv[2]).read_text().splitlines() if line]
    for number, secret in enumerate(secrets, start=1):
        for form, value in forms(secret).items():
            if value and value in text:
                secrets_found.append({"secret": number, "bytes": len(secret.encode()), "form": form})

json.dump(
    {
        "schemaErrors": errors,
        "version": parser.version,
        "creator": parser.creator,
        "pages": [page.page_id for page in pages],
        "reader": read,
        "entries": [{"exchange": e.get("_appflipExchange"), "findings": e.get("_appflipFindings", []), "endpoint": e.get("_appflipEndpoint")} for e in entries],
        "findings": [{"id": f["id"], "outcome": f["outcome"], "entries": f["_entries"]} for f in har["log"].get("_appflipFindings", [])],
        "startedDateTimes": started,
        "secretsFound": secrets_found,
    },
    sys.stdout,
)
