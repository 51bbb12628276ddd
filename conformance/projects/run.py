#!/usr/bin/env python3
"""Fresh projects outside the repository, set up exactly as docs/getting-started.md says.

The guide marks what a user would type or save:

    <!-- file: PATH -->              the next fenced block is saved as PATH in every project
    <!-- file: PATH project: A,B --> ... only in projects A and B
    <!-- run: A -->                  the next fenced block is run (bash -euo pipefail) in project A
    <!-- run: A,B -->                ... in projects A and B

Each project is an empty directory under the work directory (outside the repository). The
projects run in the order the guide first names them; the blocks of one project run in
order, in one shell. The environment is the user's, plus:

    BITWIRE_SRC          the checkout of this repository (the guide says where users clone it)
    CARGO_INSTALL_ROOT,  the project's own directories for `cargo install` and
    NPM_CONFIG_PREFIX    `npm install --global` (never the machine's ~/.cargo or npm prefix),
                         whose bin/ directories are first on PATH; the `cli` project's bin/
                         comes next on every later project's PATH: the CLI it installs is the
                         one the others use
    CARGO_TARGET_DIR     shared by the Rust projects of one run (target/projects in the repo),
                         so that the compiler and runtime are built once
    GIT_CONFIG_GLOBAL    a git configuration whose `url.<repo>.insteadOf` sends the guide's
                         repository URL, https://github.com/bitwire-dev/bitwire, to this
                         checkout (its committed HEAD): the git routes of the guide run for
                         real, offline; CARGO_NET_GIT_FETCH_WITH_CLI=true makes cargo use git
                         itself, which reads that configuration

Then the interop step: for every project with a directory `interop/<project>/`, its files
are copied into the project and `bash interop.sh write EXCHANGE` runs in every project, then
`bash interop.sh read EXCHANGE` in every project: each writes the bytes of the same values,
then decodes (and re-encodes) what every other project wrote.

Usage: run.py [--work DIR] [--only A,B] [--keep]
"""

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", ".."))
GUIDE = os.path.join(REPO, "docs", "getting-started.md")
MARK = re.compile(r"^<!--\s*(file|run):\s*(.*?)\s*-->\s*$")
FENCE = re.compile(r"^(```+|~~~+)")


def parse_guide(path):
    """Returns (files, runs, order): files as (path, projects or None, text), runs as
    {project: [script, ...]}, order as the projects in the order first named."""
    lines = open(path, encoding="utf-8").read().split("\n")
    files, runs, order = [], {}, []
    i = 0
    while i < len(lines):
        m = MARK.match(lines[i])
        i += 1
        if not m:
            continue
        kind, arg = m.group(1), m.group(2)
        while i < len(lines) and not FENCE.match(lines[i]):
            if lines[i].strip():
                sys.exit(f"{path}:{i + 1}: a <!-- {kind} --> mark must be followed by a fenced block")
            i += 1
        if i >= len(lines):
            sys.exit(f"{path}: a <!-- {kind}: {arg} --> mark has no block after it")
        fence = FENCE.match(lines[i]).group(1)
        i += 1
        body = []
        while i < len(lines) and not lines[i].startswith(fence):
            body.append(lines[i])
            i += 1
        i += 1
        text = "\n".join(body) + "\n"
        if kind == "run":
            for project in (p.strip() for p in arg.split(",")):
                runs.setdefault(project, []).append(text)
                if project not in order:
                    order.append(project)
        else:
            parts = arg.split(" project:")
            fpath = parts[0].strip()
            projects = [p.strip() for p in parts[1].split(",")] if len(parts) > 1 else None
            files.append((fpath, projects, text))
            for p in projects or []:
                if p not in order:
                    order.append(p)
    return files, runs, order


PUBLIC_URL = "https://github.com/bitwire-dev/bitwire"


def git_redirect(work):
    """A git configuration file that sends the public URL (with and without `.git`) to
    this checkout. git uses the longest matching `insteadOf`."""
    path = os.path.join(work, "gitconfig")
    with open(path, "w", encoding="utf-8") as f:
        f.write(f'[url "file://{REPO}"]\n\tinsteadOf = {PUBLIC_URL}\n\tinsteadOf = {PUBLIC_URL}.git\n')
        f.write("[user]\n\tname = bitwire guide test\n\temail = guide@bitwire.invalid\n")
    return path


def run_logged(cmd, cwd, env, log, title):
    start = time.monotonic()
    print(f"  [{title}] ...", flush=True)
    with open(log, "ab") as out:
        out.write(f"\n### {title}\n".encode())
        out.flush()
        rc = subprocess.call(cmd, cwd=cwd, env=env, stdout=out, stderr=subprocess.STDOUT)
    took = time.monotonic() - start
    if rc != 0:
        print(f"  [{title}] FAILED after {took:.0f} s (exit {rc}); last lines of {log}:")
        with open(log, "rb") as f:
            tail = f.read().decode("utf-8", "replace").splitlines()[-40:]
        print("\n".join("    " + t for t in tail))
        return False
    print(f"  [{title}] ok in {took:.0f} s", flush=True)
    return True


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--work", help="work directory (default: a new temporary directory)")
    ap.add_argument("--only", help="comma-separated projects to run (default: all)")
    ap.add_argument("--keep", action="store_true", help="keep the work directory")
    args = ap.parse_args()

    files, runs, order = parse_guide(GUIDE)
    only = args.only.split(",") if args.only else None
    projects = [p for p in order if p in runs and (only is None or p in only or p == "cli")]
    if not projects:
        sys.exit("no projects to run (docs/getting-started.md has no <!-- run: ... --> blocks?)")
    work = os.path.abspath(args.work) if args.work else tempfile.mkdtemp(prefix="bitwire-projects-")
    if os.path.commonpath([work, REPO]) == REPO:
        sys.exit(f"the work directory must be outside the repository: {work}")
    os.makedirs(work, exist_ok=True)
    base = dict(os.environ)
    base["BITWIRE_SRC"] = REPO
    base["CARGO_TARGET_DIR"] = base.get("BITWIRE_PROJECTS_TARGET", os.path.join(REPO, "target", "projects"))
    base["GIT_CONFIG_GLOBAL"] = git_redirect(work)
    base["CARGO_NET_GIT_FETCH_WITH_CLI"] = "true"
    cli_bin = os.path.join(work, "cli", ".cargo-install", "bin")
    base["PATH"] = cli_bin + os.pathsep + base["PATH"]

    def project_env(project):
        env = dict(base)
        env["CARGO_INSTALL_ROOT"] = os.path.join(work, project, ".cargo-install")
        # `npm install --global` goes to the project's own prefix, not the machine's.
        env["NPM_CONFIG_PREFIX"] = os.path.join(work, project, ".npm-global")
        env["PATH"] = os.pathsep.join(
            [os.path.join(env["CARGO_INSTALL_ROOT"], "bin"), os.path.join(env["NPM_CONFIG_PREFIX"], "bin"), env["PATH"]]
        )
        return env
    exchange = os.path.join(work, "exchange")
    shutil.rmtree(exchange, ignore_errors=True)
    os.makedirs(exchange)
    print(f"fresh projects in {work}: {', '.join(projects)}")

    failed = []
    for n, project in enumerate(projects, 1):
        pdir = os.path.join(work, project)
        shutil.rmtree(pdir, ignore_errors=True)
        os.makedirs(pdir)
        for fpath, only_in, text in files:
            if only_in is None or project in only_in:
                dest = os.path.join(pdir, fpath)
                os.makedirs(os.path.dirname(dest), exist_ok=True)
                with open(dest, "w", encoding="utf-8") as f:
                    f.write(text)
        script = "set -euo pipefail\n" + "\n".join(runs[project])
        log = os.path.join(work, f"{project}.log")
        if os.path.exists(log):
            os.remove(log)
        print(f"[{n}/{len(projects)}] {project}: the guide's commands (log: {log})", flush=True)
        if not run_logged(["bash", "-c", script], pdir, project_env(project), log, f"{project}: guide"):
            failed.append(project)

    interop = [p for p in projects if p not in failed and os.path.isdir(os.path.join(HERE, "interop", p))]
    for phase in ("write", "read"):
        for project in interop:
            pdir = os.path.join(work, project)
            if phase == "write":
                shutil.copytree(os.path.join(HERE, "interop", project), pdir, dirs_exist_ok=True)
            log = os.path.join(work, f"{project}.log")
            if not run_logged(["bash", "interop.sh", phase, exchange], pdir, project_env(project), log, f"{project}: interop {phase}"):
                failed.append(project)
    ran = [p for p in interop]
    print(f"interop: {len(ran)} projects exchanged bytes: {', '.join(ran) or 'none'}")
    if failed:
        print(f"fresh projects FAILED: {', '.join(dict.fromkeys(failed))} (work directory kept: {work})")
        return 1
    print(f"fresh projects: {len(projects)} passed, 0 failed")
    if not args.keep and not args.work:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
