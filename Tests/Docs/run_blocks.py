#!/usr/bin/env python3
"""Runs every shell and scenario block of README.md and docs/*.md against a live siwa-mock.

For each page: a fresh `siwa-mock serve --port 0` (its URL in $M and $SIWA_MOCK_URL), a scratch working
directory holding `scenarios` and `keys` links into the checkout, then the page's blocks in order:
  - ```sh / ```bash / ```shell blocks run in ONE bash session per page (`set -eo pipefail`), as a reader
    pasting them in order would: variables carry from block to block, and the first failing command
    fails the page, named by its block's line;
  - ```yaml blocks are scenario files: `siwa-mock check` must accept them (a `<!-- save as: NAME -->`
    line just above also saves the block as NAME in the working directory for the blocks after it).
A block that cannot run has `<!-- not run: REASON -->` (or `<!-- run by SCRIPT: … -->`) on the line just
above its fence; a marker without a reason is an error. Other languages (json, python, text) are shown
only. Pages that other suites add later run the same way: every .md under docs/ is taken.

Bounded: each page gets --page-timeout seconds (default 120). Exit 0 when every block passed.
Usage: run_blocks.py [--binary PATH] [--page-timeout S] [FILE.md ...]   (--extract SCRIPT PAGE: print one block)
"""

import argparse
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "Tests" / "pysupport"))
from siwatest.process import MockProcess  # noqa: E402  (the suites' one way to start a mock on --port 0)
from siwatest.runner import COMMON_FLAGS_HELP, add_common_arguments, resolve_binary  # noqa: E402

SHELL_LANGUAGES = {"sh", "bash", "shell"}
SCENARIO_LANGUAGES = {"yaml", "yml"}
MARKER = re.compile(r"^<!--\s*(not run|run by)\s*:?\s*(.*?)\s*-->$")
SAVE_AS = re.compile(r"^<!--\s*save as:\s*([A-Za-z0-9._/-]+)\s*-->$")


class Block:
    def __init__(self, language, line, text, marker, save_as):
        self.language, self.line, self.text, self.marker, self.save_as = language, line, text, marker, save_as


def blocks_of(path):
    """Fenced blocks with their language, first line number and the marker comments just above."""
    lines = path.read_text().split("\n")
    found, index = [], 0
    while index < len(lines):
        match = re.match(r"^(\s*)(```+|~~~+)\s*([A-Za-z0-9_+-]*)", lines[index])
        if not match:
            index += 1
            continue
        indent, fence, language = match.group(1), match.group(2), match.group(3).lower()
        start = index
        body = []
        index += 1
        while index < len(lines) and not lines[index].strip().startswith(fence):
            body.append(lines[index][len(indent):] if lines[index].startswith(indent) else lines[index])
            index += 1
        index += 1
        marker = save_as = None
        above = start - 1
        while above >= 0 and lines[above].strip().startswith("<!--"):
            comment = lines[above].strip()
            if m := MARKER.match(comment):
                marker = (m.group(1), m.group(2))
            elif m := SAVE_AS.match(comment):
                save_as = m.group(1)
            above -= 1
        found.append(Block(language, start + 1, "\n".join(body) + "\n", marker, save_as))
    return found


def server_errors(log_path):
    """Internal failures in a JSON log: 500 answers and error lines that are not requests (a fault's
    injected 503 is logged at level error too, and is what the page asked for)."""
    errors = []
    for line in log_path.read_text().splitlines():
        try:
            entry = json.loads(line)
        except ValueError:
            continue
        if entry.get("level") == "error" and (entry.get("msg") != "request" or entry.get("status") == 500):
            errors.append(line)
    return errors


def extract(page, script):
    """The text of the block on `page` marked `<!-- run by SCRIPT… -->` (for the scripts that run one)."""
    for block in blocks_of(page):
        if block.marker and block.marker[0] == "run by" and block.marker[1].startswith(script):
            return block.text
    sys.exit(f"{page} has no block marked 'run by {script}'")


def run_page(page, binary, timeout):
    """Runs one page; returns (counts, failures)."""
    counts = {"shell": 0, "scenario": 0, "not run": 0}
    failures = []
    blocks = blocks_of(page)
    runnable = [b for b in blocks if b.language in SHELL_LANGUAGES | SCENARIO_LANGUAGES]
    for block in runnable:
        if block.marker and not block.marker[1]:
            failures.append(f"{page.name}:{block.line}: a '{block.marker[0]}' marker needs a reason")
    todo = [b for b in runnable if not b.marker]
    counts["not run"] = len(runnable) - len(todo)
    if not todo:
        return counts, failures

    workdir = Path(tempfile.mkdtemp(prefix="siwa-docs-"))
    (workdir / "scenarios").symlink_to(REPO / "scenarios")
    (workdir / "keys").symlink_to(REPO / "scenarios" / "keys")
    (workdir / "Tests").symlink_to(REPO / "Tests")
    env = {k: v for k, v in os.environ.items() if not k.startswith("SIWA_MOCK_")}
    env["PATH"] = f"{Path(binary).resolve().parent}:{env.get('PATH', '/usr/bin:/bin')}"
    env["HOME"] = str(workdir / "home")
    (workdir / "home").mkdir()
    log_path = workdir / "siwa-mock.log"
    mock = MockProcess(Path(binary), ["--log-format", "json"], log_path)
    env["M"] = env["SIWA_MOCK_URL"] = f"http://{mock.host}:{mock.port}"
    try:
        script = ["set -eo pipefail"]
        for index, block in enumerate(todo):
            where = f"{page.name}:{block.line}"
            if block.language in SCENARIO_LANGUAGES:
                name = block.save_as or f"block-{block.line}.yaml"
                (workdir / name).write_text(block.text)
                check = subprocess.run([binary, "check", name], cwd=workdir, env=env, capture_output=True,
                                       text=True, timeout=30)
                counts["scenario"] += 1
                if check.returncode != 0:
                    failures.append(f"{where}: scenario block fails `siwa-mock check`:\n{check.stderr}")
                continue
            counts["shell"] += 1
            script.append(f"echo '@@block {where}' >&2")
            script.append(block.text)
        script.append("echo '@@done' >&2")
        if counts["shell"]:
            failures += run_session("\n".join(script), workdir, env, timeout, page.name)
        errors = server_errors(log_path)
        if errors:
            failures.append(f"{page.name}: the mock logged errors while the page ran:\n" + "\n".join(errors[:5]))
    finally:
        mock.stop()
        shutil.rmtree(workdir, ignore_errors=True)
    return counts, failures


def run_session(script, workdir, env, timeout, page_name):
    """One bash session for a page's shell blocks, in its own process group (killed afterwards)."""
    process = subprocess.Popen(["bash", "-c", script], cwd=workdir, env=env, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        out, err = process.communicate(timeout=timeout)
        timed_out = False
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        out, err = process.communicate()
        timed_out = True
    finally:
        try:
            os.killpg(process.pid, signal.SIGTERM)  # background servers a block left running
        except ProcessLookupError:
            pass
    if process.returncode == 0 and "@@done" in err and not timed_out:
        return []
    current = "?"
    for line in err.splitlines():
        if line.startswith("@@block "):
            current = line[len("@@block "):]
    why = f"timed out after {timeout} s" if timed_out else f"exit status {process.returncode}"
    shown_err = "\n".join(l for l in err.splitlines() if not l.startswith("@@"))[-3000:]
    return [f"{current}: shell block failed ({why})\n--- stdout (tail)\n{out[-2000:]}\n--- stderr (tail)\n{shown_err}"]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0], epilog=COMMON_FLAGS_HELP,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    add_common_arguments(parser)
    parser.add_argument("--page-timeout", type=int, default=120, help="seconds per page (default 120)")
    parser.add_argument("--extract", metavar="SCRIPT", help="print the block of PAGE marked 'run by SCRIPT'")
    parser.add_argument("pages", nargs="*")
    args = parser.parse_args()
    if args.extract:
        print(extract(Path(args.pages[0]), args.extract), end="")
        return 0
    args.binary = str(resolve_binary(args.binary))
    pages = [Path(p).resolve() for p in args.pages] or [REPO / "README.md"] + sorted((REPO / "docs").rglob("*.md"))
    totals = {"shell": 0, "scenario": 0, "not run": 0}
    failures = []
    started = time.monotonic()
    for page in pages:
        counts, page_failures = run_page(page, args.binary, args.page_timeout)
        for key in totals:
            totals[key] += counts[key]
        status = "FAIL" if page_failures else "ok"
        rel = page.relative_to(REPO) if page.is_relative_to(REPO) else page
        print(f"{status} {rel}: {counts['shell']} shell, {counts['scenario']} scenario, "
              f"{counts['not run']} marked not run", flush=True)
        failures += page_failures
    for failure in failures:
        print(f"\n{failure}", file=sys.stderr)
    print(f"docs: {totals['shell'] + totals['scenario']} blocks run ({totals['shell']} shell, "
          f"{totals['scenario']} scenario) on {len(pages)} pages, {totals['not run']} marked not run, "
          f"{len(failures)} failed ({time.monotonic() - started:.1f} s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
