"""A restarted Redis still loading its data is an outage (issue #21; docs/scale-out.md): while a real
redis-server reads a 3-million-key snapshot it answers -LOADING to every command, PING included, and a
replica on it must say 503 on /mock/health from the moment it noticed until Redis serves again, and then
sign in. It used to count any reply as Redis being back, so its 250 ms poll (answered -LOADING) set health
to ok while every grant script was refused: 77 of 114 samples said ok (bench/RESULTS.md).

Usage: Tests/ScaleOut/loading.py [--binary PATH]   (about 35 s; Redis takes ~0.4 GB for the snapshot)
"""

from __future__ import annotations

import argparse
import signal
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "pysupport"))
from siwatest.client import Client, mint_client_secret  # noqa: E402
from siwatest.process import MockProcess  # noqa: E402
from siwatest.runner import add_common_arguments, resolve_binary  # noqa: E402
from siwatest.scaleout import free_port, wait_for_port  # noqa: E402
from siwatest.scenario import WEB_CLIENT  # noqa: E402

KEYS = 3_000_000
ROUNDS = 3


class SnapshotRedis:
    """redis-server on a snapshot (dump.rdb) in `directory`, so a restart loads it."""

    def __init__(self, directory: Path) -> None:
        self.directory, self.port, self.proc = directory, free_port(), None
        self.start()

    def start(self) -> None:
        self.proc = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--dir", str(self.directory),
             "--save", "", "--appendonly", "no", "--daemonize", "no", "--logfile", str(self.directory / "redis.log")],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait_for_port(self.port, "redis-server")

    def cli(self, *args: str) -> str:
        return subprocess.run(["redis-cli", "-p", str(self.port), *args], capture_output=True, text=True,
                              timeout=60).stdout.strip()

    def kill(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait()


def health(port: int) -> int:
    try:
        return urllib.request.urlopen(f"http://127.0.0.1:{port}/mock/health", timeout=5).status
    except urllib.error.HTTPError as error:
        return error.code


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_common_arguments(parser)
    binary = resolve_binary(parser.parse_args().binary)
    secret = mint_client_secret(binary, WEB_CLIENT)
    with tempfile.TemporaryDirectory(prefix="siwa-loading-") as temp:
        redis = SnapshotRedis(Path(temp))
        mock = None
        try:
            # Bulk keys under another prefix: the replica's own keys are a few; the snapshot is what takes time.
            redis.cli("EVAL", f"for i=1,{KEYS} do redis.call('SET','bulk:'..i,'v'..i) end return 1", "0")
            assert redis.cli("SAVE") == "OK", "SAVE failed"
            mock = MockProcess(binary, ["--store", f"redis://127.0.0.1:{redis.port}"], Path(temp) / "mock.log")
            Client("127.0.0.1", mock.port, secret, timeout=10).check_code_flow()
            problems = []
            for round_ in range(ROUNDS):
                redis.kill()
                redis.start()
                noticed = False
                loading = ok_while_loading = 0
                start = time.monotonic()
                while time.monotonic() - start < 30:
                    before = redis.cli("PING")
                    if before == "PONG":
                        break
                    status = health(mock.port)
                    after = redis.cli("PING")
                    if not (before.startswith("LOADING") and after.startswith("LOADING")):
                        continue
                    loading += 1
                    if status == 503:
                        noticed = True
                    elif noticed:
                        ok_while_loading += 1
                # Serving again: health recovers at the next PING (every 500 ms) and a sign-in works.
                deadline = time.monotonic() + 5
                while health(mock.port) != 200 and time.monotonic() < deadline:
                    time.sleep(0.05)
                Client("127.0.0.1", mock.port, secret, timeout=10).check_code_flow()
                print(f"round {round_ + 1}: {loading} samples while Redis answered LOADING, "
                      f"{ok_while_loading} said ok after the replica noticed; healthy and signing in after")
                if loading == 0:
                    problems.append(f"round {round_ + 1}: Redis never answered LOADING (snapshot too small?)")
                elif not noticed:
                    problems.append(f"round {round_ + 1}: /mock/health never said 503 while Redis was loading")
                if ok_while_loading:
                    problems.append(f"round {round_ + 1}: /mock/health said ok {ok_while_loading} times while "
                                    "Redis was still loading")
        finally:
            if mock:
                mock.stop()
            redis.kill()
    for problem in problems:
        print(f"FAIL {problem}")
    print("loading: " + ("FAILED" if problems else "a Redis still loading its data is an outage until it serves"))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
