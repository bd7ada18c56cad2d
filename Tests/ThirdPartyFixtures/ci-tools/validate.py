"""Validates the GitHub Action, the GitLab CI/CD component and the jobs docs/ci-github.md and docs/ci-gitlab.md
give to copy, with the pinned tools of this venv; prints one line per check and exits 1 if any failed:
    python validate.py REPOSITORY

- `.github/actions/audit/action.yml` against check-jsonschema's vendored GitHub Actions schema;
- `templates/audit/template.yml`: its header (`spec:`) and its job, interpolated with its defaults (and a
  package), against the vendored GitLab CI schema; each `$[[ inputs.NAME ]]` the job uses is declared;
- docs/ci-github.md's job (the YAML block after `<!-- ci-job: github -->`), its `uses:` pointed at the action
  in this repository, against the vendored GitHub Workflows schema and through actionlint, which reads the
  action's metadata and refuses an input it does not declare or a required one left out;
- docs/ci-gitlab.md's job against the vendored GitLab CI schema, each of its `inputs:` declared by the component;
- that each check can fail: actionlint refuses the docs' job with an input the action does not declare, and the
  component check refuses an input the component does not declare.
"""
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile

import yaml

repository = pathlib.Path(sys.argv[1]).resolve()
bin_dir = pathlib.Path(sys.executable).parent
action = repository / ".github/actions/audit/action.yml"
template = repository / "templates/audit/template.yml"
scratch = pathlib.Path(tempfile.mkdtemp(prefix="ci-validate-"))
failures = []


def check(name, ok, detail=""):
    print(f"validate: {'ok  ' if ok else 'FAIL'} {name}" + (f"\n{detail}" if detail and not ok else ""))
    if not ok:
        failures.append(name)


def run(command, cwd=None):
    completed = subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=300)
    return completed.returncode, completed.stdout + completed.stderr


def schema(name, builtin, *files):
    code, output = run([str(bin_dir / "check-jsonschema"), "--builtin-schema", builtin, *map(str, files)])
    check(name, code == 0, output)


def docs_job(page, marker):
    text = (repository / "docs" / page).read_text()
    match = re.search(rf"<!-- ci-job: {marker} -->\n```yaml\n(.*?)\n```", text, re.S)
    if not match:
        check(f"docs/{page} has a job after <!-- ci-job: {marker} -->", False)
        sys.exit(1)
    return match.group(1) + "\n"


# The action.
schema("the action against the GitHub Actions schema", "vendor.github-actions", action)

# The component: the header, and the job as GitLab interpolates it.
header, _, body = template.read_text().partition("\n---\n")
declared = yaml.safe_load(header)["spec"]["inputs"]
(scratch / "header.yml").write_text(header + "\n")
used = set(re.findall(r"\$\[\[\s*inputs\.([A-Za-z0-9_-]+)\s*\]\]", body))
check("every input the component's job uses is declared", used <= set(declared), f"undeclared: {sorted(used - set(declared))}")
values = {name: (spec or {}).get("default", "ci/appflipd.deb") for name, spec in declared.items()}
(scratch / "job.yml").write_text(re.sub(r"\$\[\[\s*inputs\.([A-Za-z0-9_-]+)\s*\]\]", lambda m: str(values.get(m.group(1), "")), body))
schema("the component's header against the GitLab CI schema", "vendor.gitlab-ci", scratch / "header.yml")
schema("the component's job, interpolated, against the GitLab CI schema", "vendor.gitlab-ci", scratch / "job.yml")

# docs/ci-github.md's job, with the action of this repository, through actionlint.
workflow = docs_job("ci-github.md", "github")
uses = re.findall(r"uses: (OWNER/appflipd/\.github/actions/audit@REF)", workflow)
check("docs/ci-github.md's job uses the action as OWNER/appflipd/.github/actions/audit@REF", len(uses) == 1)
local = workflow.replace("OWNER/appflipd/.github/actions/audit@REF", "./.github/actions/audit")
project = scratch / "github"
(project / ".github/workflows").mkdir(parents=True)
(project / ".github/actions/audit").mkdir(parents=True)
shutil.copy(action, project / ".github/actions/audit/action.yml")
(project / ".github/workflows/audit.yml").write_text(local)
run(["git", "init", "-q", str(project)])  # actionlint looks for the repository's root
schema("docs/ci-github.md's job against the GitHub Workflows schema", "vendor.github-workflows", project / ".github/workflows/audit.yml")
code, output = run([str(bin_dir / "actionlint"), "-no-color", "-shellcheck=", "-pyflakes="], cwd=project)
check("docs/ci-github.md's job passes actionlint, the action's inputs read from action.yml", code == 0, output)
(project / ".github/workflows/audit.yml").write_text(local.replace("          scopes: profile\n", "          scopes: profile\n          scope-typo: profile\n"))
code, output = run([str(bin_dir / "actionlint"), "-no-color", "-shellcheck=", "-pyflakes="], cwd=project)
check("actionlint refuses an input the action does not declare (the check can fail)", code != 0 and "scope-typo" in output, output)

# docs/ci-gitlab.md's job.
pipeline = docs_job("ci-gitlab.md", "gitlab")
(scratch / "pipeline.yml").write_text(pipeline)
schema("docs/ci-gitlab.md's job against the GitLab CI schema", "vendor.gitlab-ci", scratch / "pipeline.yml")


def undeclared(document):
    includes = [item for item in yaml.safe_load(document).get("include", []) if "component" in item]
    return [name for item in includes for name in item.get("inputs", {}) if name not in declared], includes


missing, includes = undeclared(pipeline)
check("docs/ci-gitlab.md's job includes the component as $CI_SERVER_FQDN/OWNER/appflipd/audit@REF",
      [item["component"] for item in includes] == ["$CI_SERVER_FQDN/OWNER/appflipd/audit@REF"])
check("every input docs/ci-gitlab.md's job gives is declared by the component", not missing, f"undeclared: {missing}")
required = [name for name, spec in declared.items() if "default" not in (spec or {})]
given = {name for item in includes for name in item.get("inputs", {})}
check("docs/ci-gitlab.md's job gives every required input", set(required) <= given, f"missing: {sorted(set(required) - given)}")
typo, _ = undeclared(pipeline.replace("      scopes: profile\n", "      scope-typo: profile\n"))
check("the component check refuses an input the component does not declare (the check can fail)", typo == ["scope-typo"])

shutil.rmtree(scratch, ignore_errors=True)
print(f"validate: {len(failures)} failed" if failures else "validate: every check passed")
sys.exit(1 if failures else 0)
