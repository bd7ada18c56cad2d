"""Runs the GitHub Action or the GitLab CI/CD component on this machine as their runners would, for the tests
(docs/ci-github.md, docs/ci-gitlab.md), and prints what the job would show as JSON on stdout:

    python run_ci_step.py github ACTION.yml --workspace DIR --artifacts DIR [--input NAME=VALUE]... [--secret NAME=ENV]...
    python run_ci_step.py gitlab TEMPLATE.yml --workspace DIR --artifacts DIR [--input NAME=VALUE]... [--secret VARIABLE=ENV]...

GitHub: the composite action's inputs (their defaults, then --input; --secret NAME=ENV takes an input's value
from this process's environment variable ENV, so that it is on no command line) are substituted where the
action writes `${{ inputs.NAME }}`, as are `steps.ID.outputs.NAME`, `github.action_path`, `github.workspace`
and `runner.temp`; each step's `if:` is evaluated (`always()`, `success()`, `failure()`, `cancelled()`, `==`,
`!=`, `&&`, `||`, `!`); each `run:` step runs as `bash --noprofile --norc -eo pipefail FILE` in the workspace,
with its `env:`, GITHUB_OUTPUT (read back as `name=value` lines and `name<<DELIMITER` blocks),
GITHUB_STEP_SUMMARY, GITHUB_ENV and GITHUB_WORKSPACE as the runner sets them. The one `uses:` step the action may
have, actions/upload-artifact, is stubbed: the files its `path:` lists are copied to ARTIFACTS/NAME/. The
action fails at the first `run:` step that exits non-zero, with that status.

GitLab: the header's `spec: inputs:` are checked (each given one is declared, a required one is given, a value is
one of its `options:`) and interpolated where the job writes `$[[ inputs.NAME ]]`; the job's `variables:` (and
--secret VARIABLE=ENV, a masked CI/CD variable) are its environment with CI_PROJECT_DIR; `before_script` and
`script` run in one `bash -eo pipefail`, and `after_script` in another, as the shell executor runs them; the
artifacts' `paths:` (with `when: always`) are copied to ARTIFACTS/, and `reports: junit:` is named in the output.
"""
import argparse
import glob
import json
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile

import yaml

arguments = argparse.ArgumentParser()
arguments.add_argument("system", choices=["github", "gitlab"])
arguments.add_argument("file")
arguments.add_argument("--workspace", required=True)
arguments.add_argument("--artifacts", required=True)
arguments.add_argument("--input", action="append", default=[])
arguments.add_argument("--secret", action="append", default=[])
arguments.add_argument("--timeout", type=int, default=600)
args = arguments.parse_args()
workspace = pathlib.Path(args.workspace).resolve()
artifacts = pathlib.Path(args.artifacts).resolve()
artifacts.mkdir(parents=True, exist_ok=True)
given = dict(pair.split("=", 1) for pair in args.input)
secrets = {name: os.environ[variable] for name, variable in (pair.split("=", 1) for pair in args.secret)}
scratch = pathlib.Path(tempfile.mkdtemp(prefix="run-ci-step-"))


def fail(message):
    print(f"run_ci_step: {message}", file=sys.stderr)
    sys.exit(2)


def run_bash(script, env, flags):
    path = scratch / f"step-{len(list(scratch.iterdir()))}.sh"
    path.write_text(script)
    # The job's log goes to stderr; stdout is this script's JSON.
    completed = subprocess.run(
        ["bash", "--noprofile", "--norc", *flags, str(path)], cwd=workspace, env=env, stdout=sys.stderr, timeout=args.timeout
    )
    return completed.returncode


def base_environment():
    env = {key: value for key, value in os.environ.items() if key in ("PATH", "HOME", "LANG", "USER", "LOGNAME", "TERM")}
    env["CI"] = "true"
    return env


# ---------------------------------------------------------------------------------------------------------
# GitHub Actions


def github():
    action = yaml.safe_load(pathlib.Path(args.file).read_text())
    if action.get("runs", {}).get("using") != "composite":
        fail("only composite actions are run")
    declared = action.get("inputs", {})
    inputs = {}
    for name, spec in declared.items():
        if name in secrets:
            inputs[name] = secrets[name]
        elif name in given:
            inputs[name] = given[name]
        elif "default" in spec:
            inputs[name] = str(spec["default"])
        elif spec.get("required"):
            fail(f"input {name} is required")
        else:
            inputs[name] = ""
    for name in list(given) + list(secrets):
        if name not in declared:
            fail(f"the action declares no input {name}")
    temp = scratch / "runner-temp"
    temp.mkdir()
    contexts = {
        "inputs": inputs,
        "steps": {},
        "github": {"action_path": str(pathlib.Path(args.file).resolve().parent), "workspace": str(workspace)},
        "runner": {"temp": str(temp)},
    }
    summary = scratch / "step-summary.md"
    summary.write_text("")
    env_file = scratch / "github-env"
    env_file.write_text("")
    extra_env = {}
    failed = False
    status = 0
    steps = []

    def value_of(reference):
        # As GitHub does, a property that does not exist (a step that did not run) reads as ''.
        value = contexts
        for part in reference.split("."):
            value = value.get(part, "") if isinstance(value, dict) else ""
        return value if isinstance(value, str) else json.dumps(value)

    def substitute(text):
        return re.sub(r"\$\{\{\s*(.*?)\s*\}\}", lambda match: evaluate(match.group(1), as_text=True), str(text))

    def evaluate(expression, as_text=False):
        # A small subset of GitHub's expressions, translated to Python and evaluated with no builtins.
        tokens = re.findall(r"'(?:[^']|'')*'|&&|\|\||==|!=|!|\(|\)|[A-Za-z_][A-Za-z0-9_.-]*\(\)|[A-Za-z_][A-Za-z0-9_.-]*|\S", expression)
        python = []
        for token in tokens:
            if token.startswith("'"):
                python.append(repr(token[1:-1].replace("''", "'")))
            elif token == "&&":
                python.append(" and ")
            elif token == "||":
                python.append(" or ")
            elif token == "!":
                python.append(" not ")
            elif token in ("==", "!=", "(", ")"):
                python.append(token)
            elif token in ("always()", "success()", "failure()", "cancelled()"):
                python.append(repr({"always()": True, "success()": not failed, "failure()": failed, "cancelled()": False}[token]))
            elif token in ("true", "false"):
                python.append(repr(token == "true"))
            elif re.fullmatch(r"(inputs|steps|github|runner)\.[A-Za-z0-9_.-]+", token):
                python.append(repr(value_of(token)))
            else:
                fail(f"unsupported expression {expression!r} (at {token!r})")
        result = eval("".join(python), {"__builtins__": {}}, {})
        return (str(result).lower() if isinstance(result, bool) else str(result)) if as_text else result

    for index, step in enumerate(action["runs"]["steps"]):
        name = step.get("name", f"step {index + 1}")
        condition = step.get("if")
        if condition is None:
            run = not failed
        else:
            condition = re.sub(r"^\$\{\{\s*(.*?)\s*\}\}$", r"\1", str(condition))
            run = bool(evaluate(condition))
            # GitHub adds success() to a condition that names no status function.
            if not re.search(r"\b(always|success|failure|cancelled)\(\)", condition):
                run = run and not failed
        record = {"name": name, "id": step.get("id"), "ran": run}
        steps.append(record)
        if not run:
            continue
        if "uses" in step:
            if not step["uses"].startswith("actions/upload-artifact@"):
                fail(f"unsupported action {step['uses']}")
            with_ = {key: substitute(value) for key, value in step.get("with", {}).items()}
            target = artifacts / with_["name"]
            target.mkdir(parents=True, exist_ok=True)
            copied = []
            for pattern in with_["path"].splitlines():
                pattern = pattern.strip()
                for path in glob.glob(str(workspace / pattern)) if pattern else []:
                    shutil.copy(path, target)
                    copied.append(os.path.relpath(path, workspace))
            if not copied and with_.get("if-no-files-found", "warn") == "error":
                failed, status = True, 1
            record.update(stub="copied instead of uploaded", copied=copied)
            continue
        output = scratch / f"output-{index}"
        output.write_text("")
        env = base_environment()
        env.update(extra_env)
        env.update(
            {
                "GITHUB_ACTIONS": "true",
                "GITHUB_WORKSPACE": str(workspace),
                "GITHUB_ACTION_PATH": contexts["github"]["action_path"],
                "GITHUB_OUTPUT": str(output),
                "GITHUB_STEP_SUMMARY": str(summary),
                "GITHUB_ENV": str(env_file),
                "RUNNER_TEMP": str(temp),
            }
        )
        env.update({key: substitute(value) for key, value in step.get("env", {}).items()})
        if step.get("shell") != "bash":
            fail(f"{name}: only shell: bash is run")
        code = run_bash(substitute(step["run"]), env, ["-eo", "pipefail"])
        record["exitCode"] = code
        outputs = read_pairs(output.read_text())
        if step.get("id"):
            contexts["steps"][step["id"]] = {"outputs": outputs, "outcome": "success" if code == 0 else "failure"}
        extra_env.update(read_pairs(env_file.read_text()))
        if code != 0 and not failed:
            failed, status = True, code
    outputs = {name: substitute(spec.get("value", "")) for name, spec in action.get("outputs", {}).items()}
    return {"steps": steps, "outputs": outputs, "summary": summary.read_text(), "exitCode": status}


def read_pairs(text):
    pairs = {}
    lines = text.splitlines()
    index = 0
    while index < len(lines):
        line = lines[index]
        if "<<" in line and ("=" not in line or line.index("<<") < line.index("=")):
            name, delimiter = line.split("<<", 1)
            end = lines.index(delimiter, index + 1)
            pairs[name] = "\n".join(lines[index + 1 : end])
            index = end + 1
            continue
        if "=" in line:
            name, value = line.split("=", 1)
            pairs[name] = value
        index += 1
    return pairs


# ---------------------------------------------------------------------------------------------------------
# GitLab CI/CD


def gitlab():
    text = pathlib.Path(args.file).read_text()
    header, _, body = text.partition("\n---\n")
    declared = yaml.safe_load(header)["spec"]["inputs"]
    values = {}
    for name in given:
        if name not in declared:
            fail(f"the component declares no input {name}")
    for name, spec in declared.items():
        spec = spec or {}
        if name in given:
            value = given[name]
        elif "default" in spec:
            value = spec["default"]
        else:
            fail(f"input {name} is required")
        if "options" in spec and value not in spec["options"]:
            fail(f"input {name}: {value!r} is not one of {spec['options']}")
        values[name] = value

    def interpolate(match):
        name = match.group(1)
        if name not in values:
            fail(f"the job uses $[[ inputs.{name} ]], which the spec does not declare")
        return str(values[name])

    jobs = yaml.safe_load(re.sub(r"\$\[\[\s*inputs\.([A-Za-z0-9_-]+)\s*\]\]", interpolate, body))
    (name, job), = [(key, value) for key, value in jobs.items() if isinstance(value, dict) and "script" in value]
    env = base_environment()
    env.update({key: str(value) for key, value in (job.get("variables") or {}).items()})
    env.update(secrets)
    env.update({"GITLAB_CI": "true", "CI_PROJECT_DIR": str(workspace), "CI_JOB_NAME": name})
    lines = list(job.get("before_script", [])) + list(job["script"])
    code = run_bash("\n".join(lines) + "\n", env, ["-eo", "pipefail"])
    if job.get("after_script"):
        run_bash("\n".join(job["after_script"]) + "\n", env, ["-eo", "pipefail"])
    artifacts_spec = job.get("artifacts", {})
    copied = []
    if artifacts_spec.get("when", "on_success") == "always" or (code == 0 and artifacts_spec.get("when", "on_success") == "on_success"):
        for pattern in artifacts_spec.get("paths", []):
            for path in glob.glob(str(workspace / pattern)):
                destination = artifacts / os.path.relpath(path, workspace)
                if os.path.isdir(path):
                    shutil.copytree(path, destination, dirs_exist_ok=True)
                else:
                    destination.parent.mkdir(parents=True, exist_ok=True)
                    shutil.copy(path, destination)
                copied.append(os.path.relpath(path, workspace))
    return {
        "job": name,
        "stage": job.get("stage"),
        "exitCode": code,
        "artifacts": copied,
        "junit": artifacts_spec.get("reports", {}).get("junit"),
        "exposeAs": artifacts_spec.get("expose_as"),
    }


try:
    result = github() if args.system == "github" else gitlab()
finally:
    shutil.rmtree(scratch, ignore_errors=True)
json.dump(result, sys.stdout)
