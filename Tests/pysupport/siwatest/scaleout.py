"""The scale-out topology with bare processes (issue #16; docs/scale-out.md): a real redis-server, siwa-mock
replicas on it, and Debian's nginx in front of them with Examples/ScaleOut/nginx.conf, the file the compose
example uses. Every process listens on a loopback port picked by binding port 0 and is stopped by PID."""

from __future__ import annotations

import socket
import subprocess
import time
from pathlib import Path

from .process import MockProcess
from .scenario import REPO_ROOT

NGINX_TEMPLATE = REPO_ROOT / "Examples" / "ScaleOut" / "nginx.conf"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def wait_for_port(port: int, what: str, seconds: float = 5) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return
        except OSError:
            time.sleep(0.02)
    raise RuntimeError(f"{what} did not start on port {port}")


class RedisServer:
    """Debian's redis-server with an fsynced append-only file in `directory`: killed (SIGKILL) and
    started again on the same port and data, nothing issued is lost."""

    def __init__(self, directory: Path) -> None:
        self.port, self.directory, self.proc = free_port(), directory, None
        self.start()

    def start(self) -> None:
        self.proc = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--dir", str(self.directory),
             "--save", "", "--appendonly", "yes", "--appendfsync", "always", "--daemonize", "no",
             "--logfile", str(self.directory / "redis.log")],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait_for_port(self.port, "redis-server")

    def kill(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()

    @property
    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}"


class Nginx:
    """Debian's nginx balancing over `upstreams` (HOST:PORT) with Examples/ScaleOut/nginx.conf, its
    placeholders filled in as the compose example's `lb` service does."""

    def __init__(self, upstreams: list[str], directory: Path) -> None:
        assert len(upstreams) == 2, "nginx.conf names two replicas"
        self.port = free_port()
        config = NGINX_TEMPLATE.read_text().replace("@LB_PORT@", f"127.0.0.1:{self.port}")
        config = config.replace("@REPLICA_A@", upstreams[0]).replace("@REPLICA_B@", upstreams[1])
        # Its own pid file and temp folders, so that parallel runs do not share /tmp/siwa-lb*.
        config = config.replace("/tmp/siwa-lb", str(directory / "nginx"))
        path = directory / "nginx.conf"
        path.write_text(config)
        self.log_path = directory / "nginx.log"
        with open(self.log_path, "wb") as log:
            self.proc = subprocess.Popen(
                ["nginx", "-e", "stderr", "-p", str(directory), "-c", str(path), "-g", "daemon off;"],
                stdin=subprocess.DEVNULL, stdout=log, stderr=log)
        wait_for_port(self.port, "nginx")

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.port}"

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


class Fleet:
    """redis-server, `count` replicas of `binary` with `--store` on it, and nginx in front of two of them.
    Used like a MockProcess (host, port, alive, rss_kib, stop) by the load test's `--lb` mode."""

    def __init__(self, binary: Path, directory: Path, count: int = 2, extra: list[str] | None = None) -> None:
        self.redis = RedisServer(directory)
        self.replicas: list[MockProcess] = []
        self.nginx: Nginx | None = None
        try:
            for index in range(count):
                self.replicas.append(MockProcess(
                    binary, ["--store", self.redis.url, *(extra or [])], directory / f"replica-{index}.log"))
            if count == 2:
                self.nginx = Nginx([f"127.0.0.1:{r.port}" for r in self.replicas], directory)
        except BaseException:
            self.stop()
            raise

    @property
    def host(self) -> str:
        return "127.0.0.1"

    @property
    def port(self) -> int:
        """nginx's port (what clients of the fleet use), like MockProcess.port."""
        assert self.nginx is not None
        return self.nginx.port

    @property
    def alive(self) -> bool:
        return all(replica.alive for replica in self.replicas)

    def rss_kib(self) -> int:
        """The replicas' resident memory together."""
        return sum(replica.rss_kib() for replica in self.replicas)

    def stop(self) -> int:
        """Stops everything; 0 if every replica exited 0 after SIGTERM, else the first other status."""
        if self.nginx:
            self.nginx.stop()
        statuses = [replica.stop() for replica in self.replicas]
        self.redis.kill()
        return next((status for status in statuses if status != 0), 0)
