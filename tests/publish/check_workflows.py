#!/usr/bin/env python3
"""The GitHub workflows, parsed (PyYAML), held to what publishing relies on (docs/publishing.md).

Every workflow: valid YAML of the expected shape, every job with timeout-minutes, every action pinned
by a full commit SHA with its version in a comment. The book workflow (book.yml, or the file given
with --book-workflow): git and git-lfs installed before checkout, full history, `git lfs pull` of the
paths `bookbuild build --lfs-include` prints, before any other bookbuild command; check, build, then
`check site epub pdf`; logs uploaded even when a step failed; concurrency per ref without cancelling;
workflow_dispatch; least permissions per job, no secrets; on main only: a release drafted at the built
commit with notes, retries, every asset required, published as latest and its tag checked; then Pages.

--self-test: plants each fault (a property removed from book.yml's text) and fails unless the check
reports it: each property is shown to be guarded.
Usage: check_workflows.py SOURCE_DIR [--book-workflow FILE | --self-test]. Exits 1 with every problem
listed, 77 without PyYAML."""
import pathlib
import re
import sys

try:
    import yaml
except ImportError:
    print("PyYAML is not installed (Debian: python3-yaml): skipped")
    sys.exit(77)

SHA_PIN = re.compile(r"^[\w.-]+/[\w./-]+@[0-9a-f]{40}$")
MAIN_ONLY = "github.ref == 'refs/heads/main'"


def parse(text):
    data = yaml.safe_load(text)
    # YAML 1.1 reads the key `on` as True: GitHub does not; take it back.
    if isinstance(data, dict) and True in data:
        data["on"] = data.pop(True)
    return data


def runs(job):
    return [s.get("run", "") for s in job.get("steps", [])]


def step_index(job, pred):
    for i, step in enumerate(job.get("steps", [])):
        if pred(step):
            return i
    return None


def uses(step, action):
    return str(step.get("uses", "")).startswith(action + "@")


def general(name, text, data, problems):
    """Shape, timeouts and pinned actions: every workflow."""
    def check(cond, what):
        if not cond:
            problems.append(f"{name}: {what}")

    for key in ("name", "on", "jobs"):
        check(key in data, f"no `{key}`")
    for job_name, job in data.get("jobs", {}).items():
        check("runs-on" in job, f"job {job_name} has no runs-on")
        check(job.get("steps"), f"job {job_name} has no steps")
        t = job.get("timeout-minutes")
        check(isinstance(t, int) and 0 < t <= 360, f"job {job_name} has no timeout-minutes")
        for step in job.get("steps", []):
            check(("uses" in step) != ("run" in step), f"job {job_name}: a step needs one of uses/run")
    for line in text.splitlines():
        m = re.match(r"\s*(?:-\s+)?uses:\s*(\S+)(.*)$", line)
        if m:
            check(SHA_PIN.match(m.group(1)), f"`{m.group(1)}` is not pinned by a full commit SHA")
            check(re.match(r"\s+#\s*v\d", m.group(2)), f"`{m.group(1)}` has no `# vX.Y.Z` comment")
    check("secrets." not in text, "names a secret")


def book_workflow(name, text, wf, problems):
    def check(cond, what):
        if not cond:
            problems.append(f"{name}: {what}")

    on = wf.get("on", {}) or {}
    check("pull_request" in on, "not run on pull_request")
    check((on.get("push") or {}).get("branches") == ["main"], "push trigger is not main only")
    check("workflow_dispatch" in on, "cannot be run by hand (no workflow_dispatch)")
    check("pull_request_target" not in on, "pull_request_target runs forks' code with secrets")
    conc = wf.get("concurrency") or {}
    check("github.ref" in str(conc.get("group", "")), "no concurrency group per ref")
    check(conc.get("cancel-in-progress") is False, "concurrency cancels runs (a release could be cut short)")
    check(wf.get("permissions") == {}, "top-level permissions are not empty (each job says what it needs)")
    jobs = wf.get("jobs", {})

    # The build: git and LFS before checkout, the LFS files the build reads, checks after the build.
    build = jobs.get("build", {})
    check(build.get("permissions") == {"contents": "read"}, "build's permissions are not contents: read")
    check(MAIN_ONLY not in str(build.get("if", "")), "build does not run on pull requests")
    checkout = step_index(build, lambda s: uses(s, "actions/checkout"))
    git = step_index(build, lambda s: re.search(r"apt-get install[^\n]*\bgit\b", s.get("run", "")) is not None)
    lfs = step_index(build, lambda s: re.search(r"apt-get install[^\n]*\bgit-lfs\b", s.get("run", "")) is not None)
    check(checkout is not None, "build has no checkout")
    check(git is not None and checkout is not None and git < checkout, "git is not installed before checkout")
    check(lfs is not None and checkout is not None and lfs < checkout, "git-lfs is not installed before checkout")
    if checkout is not None:
        w = build["steps"][checkout].get("with", {}) or {}
        check(w.get("fetch-depth") == 0, "checkout does not fetch the whole history (fetch-depth: 0)")
    pull = step_index(build, lambda s: "git lfs pull --include=" in s.get("run", "")
                      and "bookbuild build --lfs-include" in s.get("run", ""))
    check(pull is not None, "no `git lfs pull --include` of what `bookbuild build --lfs-include` prints")

    def at(command):
        return step_index(build, lambda s: re.search(command, s.get("run", "")) is not None)

    first_check, build_step = at(r"bookbuild check(\s|$)(?!site)"), at(r"bookbuild build(\s|$)(?!--lfs)")
    outputs = at(r"bookbuild check site epub pdf")
    check(first_check is not None and build_step is not None and first_check < build_step,
          "`bookbuild check` does not come before `bookbuild build`")
    check(outputs is not None and build_step is not None and build_step < outputs,
          "the outputs are not checked after the build (`bookbuild check site epub pdf`)")
    check(pull is not None and first_check is not None and checkout is not None and checkout < pull < first_check,
          "the LFS files are not fetched after checkout and before the book is read")
    install = at(r"apt-get install[^\n]*(\.deb|\"\$deb\")|cmake --install")
    check(install is not None and pull is not None and install < pull, "bookbuild is not installed before it runs")
    tool = "\n".join(runs(build))
    check(re.search(r"sha256sum -c", tool) or re.search(r"rev-parse HEAD\)\" = '[0-9a-f]{40}'", tool)
          or 'src="$GITHUB_WORKSPACE"' in tool,
          "bookbuild comes from an unverified source (neither a checked .deb nor a commit)")
    uploads = [s for s in build.get("steps", []) if uses(s, "actions/upload-artifact")]
    check(any((s.get("with") or {}).get("name") == "book" and (s.get("with") or {}).get("if-no-files-found") == "error"
              for s in uploads), "the outputs are not uploaded as `book` (failing when none are found)")
    check(any(str(s.get("if", "")).strip() == "always()" and "logs" in str((s.get("with") or {}).get("path", ""))
              for s in uploads), "the logs are not uploaded when a step fails (if: always())")

    # The release: main only, drafted at the built commit, every asset required, retried, latest.
    release = jobs.get("release", {})
    check(MAIN_ONLY in str(release.get("if", "")) and "pull_request" not in str(release.get("if", "")),
          "release may run off main")
    check(release.get("needs") in ("build", ["build"]), "release does not wait for the build")
    check(release.get("permissions") == {"contents": "write"}, "release's permissions are not contents: write only")
    rel = "\n".join(runs(release))
    env = {}
    for s in release.get("steps", []):
        env.update(s.get("env", {}) or {})
    check(env.get("SOURCE_SHA") == "${{ github.sha }}" and re.search(r'gh release create [^\n]*--target "\$SOURCE_SHA"', rel),
          "the release is not pinned to the built commit (--target github.sha)")
    check(re.search(r"gh release create [^\n]*--draft", rel), "the release is not created as a draft")
    check(re.search(r"gh release create [^\n]*--notes-file", rel) and "/commit/$SOURCE_SHA" in rel,
          "the release has no notes linking the commit")
    check(re.search(r"retry gh release upload", rel) and re.search(r"retry\(\)", rel), "the uploads are not retried")
    check(re.search(r'if \[ ! -f "book/\$f" \]', rel) and '[ "$missing" = 0 ]' in rel,
          "a missing asset does not fail the release")
    check(re.search(r"gh release edit [^\n]*--draft=false[^\n]*--latest", rel), "the release is not published as latest")
    check(re.search(r"commits/\$tag", rel), "the published tag is not checked against the built commit")
    check(re.search(r"TZ='[^']+' date \+'[^']*%[YmdHMS]", rel), "the tag does not carry the date and time")

    # Pages: after the release, main only.
    pages = jobs.get("pages", {})
    check(MAIN_ONLY in str(pages.get("if", "")), "pages may run off main")
    needs = pages.get("needs", [])
    check("release" in (needs if isinstance(needs, list) else [needs]), "pages is not deployed after the release")
    check(pages.get("permissions") == {"pages": "write", "id-token": "write"}, "pages' permissions")
    check(any(uses(s, "actions/deploy-pages") for s in pages.get("steps", [])), "no Pages deployment")


def check_file(path, book, problems):
    text = path.read_text()
    data = parse(text)
    general(path.name, text, data, problems)
    if book:
        book_workflow(path.name, text, data, problems)


def check_repository(root):
    problems = []
    workflows = root / ".github" / "workflows"
    for path in sorted(workflows.glob("*.yml")):
        check_file(path, path.name == "book.yml", problems)
    # The tool's CI runs the README's test command; its release attaches the .deb and its SHA-256.
    ci = parse((workflows / "ci.yml").read_text())
    if "scripts/test.sh" not in (root / "README.md").read_text():
        problems.append("README.md: the test command is not scripts/test.sh")
    if not any("scripts/test.sh" in "\n".join(runs(j)) for j in ci["jobs"].values()):
        problems.append("ci.yml: does not run scripts/test.sh")
    tool = parse((workflows / "tool-release.yml").read_text())
    if list(tool["on"].get("push", {}).get("tags", [])) != ["v*"]:
        problems.append("tool-release.yml: not run on version tags")
    steps = [s for j in tool["jobs"].values() for s in j.get("steps", [])]
    if not any("cpack -G DEB" in s.get("run", "") and "sha256sum" in s.get("run", "") for s in steps):
        problems.append("tool-release.yml: no .deb with its SHA256SUMS")
    return problems


# Each fault removes one property from book.yml's text: (what, old, new, the problem that must be reported).
FAULTS = [
    ("git installed after checkout", None, "move-install-after-checkout", "git is not installed before checkout"),
    ("no git-lfs", "ca-certificates curl git git-lfs", "ca-certificates curl git", "git-lfs is not installed"),
    ("shallow checkout", "fetch-depth: 0", "fetch-depth: 1", "fetch-depth"),
    ("no LFS pull", 'git lfs pull --include="$include"', "true", "git lfs pull"),
    ("outputs not checked", "bookbuild check site epub pdf", "true", "outputs are not checked"),
    ("release not pinned", '--target "$SOURCE_SHA" ', "", "not pinned to the built commit"),
    ("release not drafted", " --draft\n", "\n", "draft"),
    ("missing asset accepted", '[ "$missing" = 0 ]', "true", "missing asset"),
    ("uploads not retried", "retry gh release upload", "gh release upload", "not retried"),
    ("not latest", "--draft=false --latest", "--draft=false", "latest"),
    ("no concurrency", "concurrency:\n  group: book-${{ github.ref }}\n  cancel-in-progress: false\n", "", "concurrency group"),
    ("runs cancelled", "cancel-in-progress: false", "cancel-in-progress: true", "cancels runs"),
    ("no dispatch", "  workflow_dispatch:\n", "", "workflow_dispatch"),
    ("no timeout", "    timeout-minutes: 30\n", "", "timeout-minutes"),
    ("action by tag", "actions/checkout@11bd71901bbe5b1630ceea73d27597364c9af683", "actions/checkout@v4", "full commit SHA"),
    ("no version comment", "@d6db90164ac5ed86f2b6aed7e0febac5b3c0c03e # v4.0.5", "@d6db90164ac5ed86f2b6aed7e0febac5b3c0c03e", "comment"),
    ("no logs on failure", "        if: always()\n", "", "if: always()"),
    ("pages before release", "needs: [build, release]", "needs: [build]", "after the release"),
    ("build may write", "    permissions:\n      contents: read\n", "    permissions:\n      contents: write\n", "build's permissions"),
]


def self_test(root):
    text = (root / ".github" / "workflows" / "book.yml").read_text()
    base = []
    book_workflow("book.yml", text, parse(text), base)
    general("book.yml", text, parse(text), base)
    failures = [f"the unchanged book.yml has problems: {base}"] if base else []
    for what, old, new, expected in FAULTS:
        if old is None:  # move the install step after the checkout step
            lines = text.split("\n")
            start = next(i for i, l in enumerate(lines) if "- name: Install git and Git LFS" in l)
            end = next(i for i, l in enumerate(lines) if "- uses: actions/checkout@" in l)
            faulty = "\n".join(lines[:start] + lines[end:end + 1] + lines[start:end] + lines[end + 1:])
        else:
            if old not in text:
                failures.append(f"fault `{what}`: its text is no longer in book.yml (update the fault)")
                continue
            faulty = text.replace(old, new, 1)
        found = []
        general("book.yml", faulty, parse(faulty), found)
        book_workflow("book.yml", faulty, parse(faulty), found)
        if not any(expected in p for p in found):
            failures.append(f"fault `{what}` planted and not reported as `{expected}` (reported: {found})")
    for f in failures:
        print(f)
    print(f"{len(FAULTS)} faults planted, {len(FAULTS) - len(failures)} reported")
    return 1 if failures else 0


def main():
    root = pathlib.Path(sys.argv[1])
    if "--self-test" in sys.argv:
        sys.exit(self_test(root))
    if "--book-workflow" in sys.argv:
        problems = []
        check_file(pathlib.Path(sys.argv[sys.argv.index("--book-workflow") + 1]), True, problems)
    else:
        problems = check_repository(root)
    for p in problems:
        print(p)
    sys.exit(1 if problems else 0)


main()
