#!/usr/bin/env python3
"""Writes the Python packages for scripts/package-python.sh (which strips the binary and passes its facts).

  dist/siwa_mock-VERSION-py3-none-TAGS.whl   the binary: .data/scripts/siwa-mock (pip puts it on the
                                             environment's PATH), the `siwa_mock` package (find_binary)
  dist/siwa_mock-VERSION.tar.gz              the sdist pip takes on any other platform: its build stops
                                             with how to get the binary instead of a compiler error
  dist/siwa_mock_pytest-VERSION-py3-none-any.whl   the pytest plugin (clients/python), requiring the above

Deterministic: entries sorted, every time stamp SOURCE_DATE_EPOCH, fixed modes, no build paths.
"""

from __future__ import annotations

import argparse
import base64
import gzip
import hashlib
import io
import os
import tarfile
import time
import tomllib
import zipfile
from pathlib import Path

# The binary is statically linked (no ELF interpreter, no shared library, no glibc symbol versions:
# scripts/package-lib.sh refuses anything else), so it runs on every x86_64 Linux, glibc or musl. The
# wheel says so with both families' oldest tags pip still accepts: manylinux2014 (= manylinux_2_17, the
# floor of current pip, ruff and uv) and musllinux_1_1 (Alpine). One wheel, the compressed tag set of
# PEP 425; the macOS, Windows and arm64 pips skip it and take the sdist below.
PLATFORM_TAG = "manylinux_2_17_x86_64.manylinux2014_x86_64.musllinux_1_1_x86_64"
HOW_TO_GET = ("siwa-mock's Python package carries a prebuilt binary for x86_64 Linux only. On this platform, "
              "build the binary from siwa-mock's source "
              "(`swift build -c release --product siwa-mock`) and set SIWA_MOCK_BINARY=.build/release/siwa-mock, "
              "or run the container image and set SIWA_MOCK_URL (docs/container.md); then install only the "
              "pytest plugin: pip install siwa-mock-pytest (it needs siwa-mock only on x86_64 Linux).")


def record_hash(data: bytes) -> str:
    return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()


def write_wheel(path: Path, files: dict[str, tuple[bytes, int]], dist_info: str, epoch: int) -> None:
    """files: archive name -> (bytes, mode); RECORD is added last, as the spec asks."""
    stamp = time.gmtime(max(epoch, 315532800))[:6]  # zip cannot say before 1980
    record = "".join(f"{name},{record_hash(data)},{len(data)}\n" for name, (data, _) in sorted(files.items()))
    record += f"{dist_info}/RECORD,,\n"
    entries = sorted(files.items()) + [(f"{dist_info}/RECORD", (record.encode(), 0o644))]
    with zipfile.ZipFile(path, "w") as archive:
        for name, (data, mode) in entries:
            info = zipfile.ZipInfo(name, date_time=stamp)
            info.external_attr = (0o100000 | mode) << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            info.create_system = 3  # Unix, so the mode above is read
            archive.writestr(info, data, compresslevel=6)


def metadata(name: str, version: str, summary: str, requires: list[str], extra: str = "") -> bytes:
    lines = ["Metadata-Version: 2.1", f"Name: {name}", f"Version: {version}", f"Summary: {summary}",
             "License: MIT", "Requires-Python: >=3.9"]
    lines += [f"Requires-Dist: {requirement}" for requirement in requires]
    return ("\n".join(lines) + "\n\n" + extra).encode()


def wheel_file(tags: list[str]) -> bytes:
    return ("Wheel-Version: 1.0\nGenerator: siwa-mock scripts/package-python.py\nRoot-Is-Purelib: true\n"
            + "".join(f"Tag: {tag}\n" for tag in tags)).encode()


def binary_wheel(args, root: Path, out: Path) -> Path:
    version, dist_info = args.version, f"siwa_mock-{args.version}.dist-info"
    files = {f"siwa_mock-{version}.data/scripts/siwa-mock": (Path(args.binary).read_bytes(), 0o755),
             "siwa_mock/siwa-mock.sha256": (f"{args.sha256}  siwa-mock\n".encode(), 0o644)}
    for source in sorted((root / "clients/python/binary/siwa_mock").glob("*.py")):
        files[f"siwa_mock/{source.name}"] = (source.read_bytes(), 0o644)
    files[f"{dist_info}/LICENSE"] = ((root / "LICENSE").read_bytes(), 0o644)
    files[f"{dist_info}/METADATA"] = (metadata(
        "siwa-mock", version, "siwa-mock, the fake Sign in with Apple server: the static x86_64 Linux binary", [],
        f"`pip install siwa-mock` puts the `siwa-mock` binary (SHA-256 {args.sha256}) on the environment's PATH.\n"),
        0o644)
    files[f"{dist_info}/WHEEL"] = (wheel_file([f"py3-none-{platform}" for platform in PLATFORM_TAG.split(".")]), 0o644)
    path = out / f"siwa_mock-{version}-py3-none-{PLATFORM_TAG}.whl"
    write_wheel(path, files, dist_info, args.epoch)
    return path


def plugin_wheel(args, root: Path, out: Path) -> Path:
    project = tomllib.loads((root / "clients/python/pyproject.toml").read_text())["project"]
    version, dist_info = args.version, f"siwa_mock_pytest-{args.version}.dist-info"
    files = {}
    for source in sorted((root / "clients/python/src/siwa_mock_pytest").glob("*.py")):
        files[f"siwa_mock_pytest/{source.name}"] = (source.read_bytes(), 0o644)
    # The binary comes with it where the binary wheel exists; elsewhere the plugin installs alone and
    # says how to get a binary when a test starts the mock.
    requires = [*project["dependencies"], f'siwa-mock=={version}; sys_platform == "linux" and platform_machine == "x86_64"']
    files[f"{dist_info}/METADATA"] = (metadata(project["name"], version, project["description"], requires), 0o644)
    files[f"{dist_info}/WHEEL"] = (wheel_file(["py3-none-any"]), 0o644)
    entry_points = "".join(f"[{group}]\n" + "".join(f"{k} = {v}\n" for k, v in sorted(points.items())) + "\n"
                           for group, points in sorted(project["entry-points"].items()))
    files[f"{dist_info}/entry_points.txt"] = (entry_points.encode(), 0o644)
    files[f"{dist_info}/top_level.txt"] = (b"siwa_mock_pytest\n", 0o644)
    files[f"{dist_info}/LICENSE"] = ((root / "LICENSE").read_bytes(), 0o644)
    path = out / f"siwa_mock_pytest-{version}-py3-none-any.whl"
    write_wheel(path, files, dist_info, args.epoch)
    return path


def refusing_sdist(args, out: Path) -> Path:
    """An sdist whose in-tree build backend (no requirement to download) stops with HOW_TO_GET."""
    base = f"siwa_mock-{args.version}"
    backend = (f'"""siwa-mock has no source build in Python: the wheel carries the binary."""\n\nMESSAGE = {HOW_TO_GET!r}\n\n\n'
               "def _refuse(*args, **kwargs):\n    raise SystemExit('\\n' + MESSAGE + '\\n')\n\n\n"
               "get_requires_for_build_wheel = prepare_metadata_for_build_wheel = build_wheel = _refuse\n"
               "get_requires_for_build_sdist = build_sdist = _refuse\n")
    pyproject = '[build-system]\nrequires = []\nbuild-backend = "refuse"\nbackend-path = ["."]\n'
    members = {"PKG-INFO": metadata("siwa-mock", args.version, "siwa-mock: the binary (x86_64 Linux wheels only)", []),
               "pyproject.toml": pyproject.encode(), "refuse.py": backend.encode()}
    raw = io.BytesIO()
    with tarfile.open(fileobj=raw, mode="w", format=tarfile.PAX_FORMAT) as tar:
        for name, data in sorted(members.items()):
            info = tarfile.TarInfo(f"{base}/{name}")
            info.size, info.mtime, info.mode = len(data), args.epoch, 0o644
            info.uname = info.gname = ""
            tar.addfile(info, io.BytesIO(data))
    path = out / f"{base}.tar.gz"
    with open(path, "wb") as file, gzip.GzipFile(filename="", fileobj=file, mode="wb", mtime=args.epoch) as gz:
        gz.write(raw.getvalue())
    return path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    for flag in ("--binary", "--sha256", "--version", "--out", "--root"):
        parser.add_argument(flag, required=True)
    parser.add_argument("--epoch", type=int, required=True)
    args = parser.parse_args()
    out, root = Path(args.out), Path(args.root)
    for path in (binary_wheel(args, root, out), refusing_sdist(args, out), plugin_wheel(args, root, out)):
        print(path)


if __name__ == "__main__":
    main()
