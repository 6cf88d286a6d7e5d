#!/usr/bin/env python3
"""The GitHub workflows, parsed (no validator of GitHub's schema installs here without a download):
each is valid YAML of the expected shape; the book workflow builds on pull requests with read-only
permissions and no secrets, and on a push to main releases the EPUBs and PDFs (latest) and deploys
Pages; `bookbuild init`'s copy is the same file; the tool's CI runs the README's test command.
Usage: check_workflows.py SOURCE_DIR. Exits 1 with every problem listed, 77 without PyYAML."""
import pathlib
import re
import sys

try:
    import yaml
except ImportError:
    print("PyYAML is not installed (Debian: python3-yaml): skipped")
    sys.exit(77)

root = pathlib.Path(sys.argv[1])
problems = []


def check(cond, what):
    if not cond:
        problems.append(what)


def load(name):
    text = (root / ".github" / "workflows" / name).read_text()
    # YAML 1.1 reads the key `on` as True: GitHub does not; take it back.
    data = yaml.safe_load(text)
    if True in data:
        data["on"] = data.pop(True)
    for key in ("name", "on", "jobs"):
        check(key in data, f"{name}: no `{key}`")
    for job_name, job in data.get("jobs", {}).items():
        check("runs-on" in job, f"{name}: job {job_name} has no runs-on")
        check(job.get("steps"), f"{name}: job {job_name} has no steps")
        for step in job.get("steps", []):
            check(("uses" in step) != ("run" in step), f"{name}: job {job_name}: a step needs one of uses/run")
    return text, data


def runs_on_pull_request(job):
    cond = str(job.get("if", ""))
    return "github.event_name == 'push'" not in cond


def all_runs(job):
    return "\n".join(step.get("run", "") for step in job.get("steps", []))


# The book workflow.
text, book = load("book.yml")
on = book["on"]
check("pull_request" in on, "book.yml: not run on pull_request")
check(on.get("push", {}).get("branches") == ["main"], "book.yml: push trigger is not main only")
check("pull_request_target" not in on, "book.yml: pull_request_target runs forks' code with secrets")
check(book.get("permissions") == {"contents": "read"}, "book.yml: top-level permissions are not contents: read")
check("secrets." not in text, "book.yml: names a secret")
jobs = book["jobs"]
for name, job in jobs.items():
    if runs_on_pull_request(job):
        check(job.get("permissions", book["permissions"]) == {"contents": "read"},
              f"book.yml: job {name} runs on pull requests with write permissions")
build = jobs.get("build", {})
check(runs_on_pull_request(build), "book.yml: build does not run on pull requests")
runs = all_runs(build)
for command in ("bookbuild check", "bookbuild build"):
    check(command in runs, f"book.yml: build does not run `{command}`")
check(runs.index("bookbuild check") < runs.index("bookbuild build") if "bookbuild build" in runs else False,
      "book.yml: check does not come before build")
check(re.search(r"apt-get install[^\n]*bookbuild_[^\n]*\.deb", runs), "book.yml: bookbuild is not installed from its .deb")
check(any(s.get("uses", "").startswith("actions/upload-artifact@") for s in build.get("steps", [])),
      "book.yml: build uploads no artifact")
release = jobs.get("release", {})
check(not runs_on_pull_request(release), "book.yml: release runs on pull requests")
check(release.get("permissions") == {"contents": "write"}, "book.yml: release cannot write the release")
rel = [s for s in release.get("steps", []) if s.get("uses", "").startswith("softprops/action-gh-release@")]
check(len(rel) == 1 and rel[0]["with"].get("make_latest") is True, "book.yml: the release is not marked latest")
if rel:
    files = rel[0]["with"].get("files", "")
    check("epub/*.epub" in files and "pdf/*.pdf" in files, "book.yml: the release lacks the EPUBs or PDFs")
pages = jobs.get("pages", {})
check(not runs_on_pull_request(pages), "book.yml: pages runs on pull requests")
check(pages.get("permissions") == {"pages": "write", "id-token": "write"}, "book.yml: pages permissions")
check(any(s.get("uses", "").startswith("actions/deploy-pages@") for s in pages.get("steps", [])),
      "book.yml: no Pages deployment")

# `bookbuild init` writes the same workflow, the version filled in.
template = (root / "templates" / "init" / "common" / ".github" / "workflows" / "book.yml").read_text()
version = re.search(r"project\(bookbuild VERSION ([0-9.]+)", (root / "CMakeLists.txt").read_text()).group(1)
check(template.replace("@BOOKBUILD_VERSION@", version) == text,
      "book.yml differs from templates/init/common/.github/workflows/book.yml (with the version filled in)")

# The tool's CI runs the README's test command; its release job attaches the .deb.
text, ci = load("ci.yml")
check("pull_request" in ci["on"], "ci.yml: not run on pull_request")
check(ci.get("permissions") == {"contents": "read"}, "ci.yml: permissions are not contents: read")
readme = (root / "README.md").read_text()
check("scripts/test.sh" in readme, "README.md: the test command is not scripts/test.sh")
check(any("scripts/test.sh" in all_runs(j) for j in ci["jobs"].values()), "ci.yml: does not run scripts/test.sh")
text, tool = load("tool-release.yml")
check(list(tool["on"].get("push", {}).get("tags", [])) == ["v*"], "tool-release.yml: not run on version tags")
steps = [s for j in tool["jobs"].values() for s in j.get("steps", [])]
check(any("cpack -G DEB" in s.get("run", "") for s in steps), "tool-release.yml: no cpack -G DEB")
check(any(s.get("uses", "").startswith("softprops/action-gh-release@") and ".deb" in s["with"].get("files", "")
          for s in steps), "tool-release.yml: the .deb is not attached to the release")

for p in problems:
    print(p)
sys.exit(1 if problems else 0)
