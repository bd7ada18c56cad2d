"""Checks one run of the GitHub Action or the GitLab component (run_ci_step.py's JSON) against what the job
should show; prints each problem and exits 1 if there is one:
    python ci_run_check.py RESULT.json LOG REPORTS_DIR --exit N [--secrets FILE] [--failed CHECK]

- the run's exit status is N, and so is the audit's (`exit-status`, GitHub);
- REPORTS_DIR (the uploaded artifact, or the kept artifacts' output directory) holds audit.xml, audit.har,
  audit.json, summary.md and audit.txt; the HAR passes har_check.py (HAR 1.2's schema, haralyzer);
- GitHub: the outputs passed, failed, warnings, could-not-run and skipped are the JSON report's counts, and the
  job summary is summary.md, which starts with the counts' table;
- with --failed: that check failed, and the summary names it;
- with --secrets: no line of FILE is in the job's LOG, the reports or the outputs, in any form har_check.py
  searches for (raw, percent-encoded, base64, base64url).
"""
import argparse
import json
import pathlib
import subprocess
import sys

parser = argparse.ArgumentParser()
parser.add_argument("result")
parser.add_argument("log")
parser.add_argument("reports")
parser.add_argument("--exit", type=int, required=True)
parser.add_argument("--secrets")
parser.add_argument("--failed")
args = parser.parse_args()
here = pathlib.Path(__file__).resolve().parent
result = json.loads(pathlib.Path(args.result).read_text())
reports = pathlib.Path(args.reports)
problems = []

if result["exitCode"] != args.exit:
    problems.append(f"the run exited {result['exitCode']}, not {args.exit}")
files = ["audit.xml", "audit.har", "audit.json", "summary.md", "audit.txt"]
missing = [name for name in files if not (reports / name).is_file()]
if missing:
    problems.append(f"{reports} lacks {', '.join(missing)}")
    print("\n".join(problems))
    sys.exit(1)
report = json.loads((reports / "audit.json").read_text())
if report["exitStatus"] != args.exit:
    problems.append(f"the audit's exitStatus is {report['exitStatus']}, not {args.exit}")
summary = (reports / "summary.md").read_text()
if not summary.startswith("## appflip audit: ") or "| ✘ failed | ! could not run | ⚠ warnings | ✔ passed | – skipped |" not in summary:
    problems.append("summary.md does not start with the outcome and the counts' table")

if "outputs" in result:
    outputs = result["outputs"]
    counts = {
        "passed": "pass",
        "failed": "fail",
        "warnings": "warning",
        "could-not-run": "could-not-run",
        "skipped": "skipped",
    }
    for output, outcome in counts.items():
        expected = str(sum(1 for r in report["results"] if r["outcome"] == outcome))
        if outputs.get(output) != expected:
            problems.append(f"output {output} is {outputs.get(output)!r}, the report counts {expected}")
    if outputs.get("exit-status") != str(args.exit):
        problems.append(f"output exit-status is {outputs.get('exit-status')!r}")
    if result["summary"] != summary:
        problems.append("the job summary is not summary.md")
    ran = {step["name"]: step["ran"] for step in result["steps"]}
    if not ran.get("Upload the reports") or not ran.get("Write the job summary"):
        problems.append(f"the summary and the upload did not both run: {ran}")

if args.failed:
    outcome = next((r["outcome"] for r in report["results"] if r["id"] == args.failed), None)
    if outcome != "fail":
        problems.append(f"{args.failed} is {outcome}, not fail")
    if f"`{args.failed}`" not in summary:
        problems.append(f"the summary does not name {args.failed}")

checked = json.loads(
    subprocess.run(
        [sys.executable, str(here / "har_check.py"), str(reports / "audit.har")] + ([args.secrets] if args.secrets else []),
        capture_output=True,
        check=True,
        text=True,
    ).stdout
)
if checked["schemaErrors"]:
    problems.append(f"the HAR: {checked['schemaErrors'][:5]}")
if not checked["reader"]:
    problems.append("haralyzer read no entry of the HAR")
if checked["secretsFound"]:
    problems.append(f"the HAR holds a secret: {checked['secretsFound']}")
if args.secrets:
    secrets = [line for line in pathlib.Path(args.secrets).read_text().splitlines() if line]
    texts = {name: (reports / name).read_text() for name in files}
    texts["the job's log"] = pathlib.Path(args.log).read_text()
    texts["the outputs"] = json.dumps(result)
    for name, text in texts.items():
        if any(secret in text for secret in secrets):
            problems.append(f"{name} holds a secret")

print("\n".join(problems) if problems else "every check passed")
sys.exit(1 if problems else 0)
