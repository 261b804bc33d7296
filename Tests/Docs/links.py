"""Every relative Markdown link in README.md, docs/ and scenarios/ names a file that exists and, with
`#anchor`, a heading of that file (GitHub's slugs: lowercase, punctuation dropped, spaces to hyphens).
Exit 1 listing each broken link as FILE:LINE: TARGET."""

from __future__ import annotations

import re
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
LINK = re.compile(r"\]\(([^)\s]+)\)")
FENCE = re.compile(r"^\s*(```|~~~)")


def slug(heading: str) -> str:
    text = re.sub(r"`|\*|_(?=\W)|(?<=\W)_", "", heading.strip().lower())
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors(path: Path) -> set[str]:
    found: set[str] = set()
    counts: dict[str, int] = {}
    fenced = False
    for line in path.read_text().splitlines():
        if FENCE.match(line):
            fenced = not fenced
        if fenced or not line.startswith("#"):
            continue
        base = slug(line.lstrip("#"))
        n = counts.get(base, 0)
        counts[base] = n + 1
        found.add(base if n == 0 else f"{base}-{n}")
    return found


def pages() -> list[Path]:
    return [REPO / "README.md", *sorted((REPO / "docs").glob("*.md")), *sorted((REPO / "scenarios").glob("*.md"))]


def main() -> int:
    broken = []
    for page in pages():
        fenced = False
        for number, line in enumerate(page.read_text().splitlines(), 1):
            if FENCE.match(line):
                fenced = not fenced
            if fenced:
                continue
            for target in LINK.findall(line):
                if re.match(r"[a-z]+:", target):
                    continue
                file, _, anchor = target.partition("#")
                destination = (page.parent / file).resolve() if file else page
                if not destination.exists():
                    broken.append(f"{page.relative_to(REPO)}:{number}: {target} (no such file)")
                elif anchor and destination.suffix == ".md" and anchor not in anchors(destination):
                    broken.append(f"{page.relative_to(REPO)}:{number}: {target} (no such section)")
    for line in broken:
        print(line)
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main())
