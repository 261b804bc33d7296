"""A TCP proxy between the replicas and Redis that damages Redis' replies on command (issue #21): the
differential test (Tests/ScaleOut/differential.py) points every replica's `--store` at it and arms one fault
at a time for a short window. Commands go to Redis untouched; each reply (found by its RESP framing,
https://redis.io/docs/latest/develop/reference/protocol-spec/) coming back while a fault is armed is

- `delay`: held back for a random 0.2–1.5 s (the replicas' deadline is 1 s per operation, docs/scale-out.md);
- `split`: written one byte at a time, 5–80 ms apart (drawn per reply: a 20-byte reply takes 0.1–1.6 s);
- `truncate`: cut in half, then the connection is closed;
- `duplicate`: written twice (a reply nobody asked for).

The replicas must take each as an outage (503, `Retry-After: 1`) or as the answer itself, never a wrong
answer. The proxy is an asyncio loop in a child process of the harness (`RedisProxy` starts it and
talks to it over its standard input and output: `arm`, `disarm`, and `fired`, the replies each fault
changed). `query` is a small blocking RESP client for the harness's
own reads of Redis (pipelined commands, replies parsed by the same framing).
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import socket
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "pysupport"))
from siwatest.scaleout import free_port  # noqa: E402

KINDS = ("delay", "split", "truncate", "duplicate")


def reply_end(buffer: bytes | bytearray, start: int = 0) -> int | None:
    """The index just past the RESP reply starting at `start`, or None while it is incomplete."""
    line_end = buffer.find(b"\r\n", start)
    if line_end < 0:
        return None
    kind, header = buffer[start:start + 1], buffer[start + 1:line_end]
    after = line_end + 2
    if kind in (b"+", b"-", b":", b",", b"#", b"_", b"("):
        return after
    if kind in (b"$", b"!", b"="):
        length = int(header)
        if length < 0:
            return after
        return after + length + 2 if len(buffer) >= after + length + 2 else None
    if kind in (b"*", b"~", b">", b"%", b"|"):
        count = int(header) * (2 if kind in (b"%", b"|") else 1)
        position = after
        for _ in range(max(count, 0)):
            position = reply_end(buffer, position)
            if position is None:
                return None
        return position
    raise ValueError(f"not a RESP reply: {bytes(buffer[start:start + 20])!r}")


def parse(buffer: bytes, start: int = 0):
    """The RESP2 value at `start` and the index after it (bulk strings as bytes, errors as ValueError
    instances, arrays as lists)."""
    line_end = buffer.index(b"\r\n", start)
    kind, header = buffer[start:start + 1], buffer[start + 1:line_end].decode()
    after = line_end + 2
    if kind == b"+":
        return header, after
    if kind == b"-":
        return ValueError(header), after
    if kind == b":":
        return int(header), after
    if kind == b"$":
        length = int(header)
        return (None, after) if length < 0 else (buffer[after:after + length], after + length + 2)
    if kind == b"*":
        values, position = [], after
        for _ in range(max(int(header), 0)):
            value, position = parse(buffer, position)
            values.append(value)
        return values, position
    raise ValueError(f"unexpected RESP type {kind!r}")


def query(port: int, commands: list[list[str]], timeout: float = 5.0) -> list:
    """Sends `commands` as one pipeline to Redis on `port`; one parsed reply per command."""
    data = b"".join(b"*%d\r\n" % len(c) + b"".join(b"$%d\r\n%s\r\n" % (len(a.encode()), a.encode()) for a in c)
                    for c in commands)
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as connection:
        connection.sendall(data)
        buffer, replies, position = b"", [], 0
        while len(replies) < len(commands):
            end = reply_end(buffer, position) if buffer[position:] else None
            if end is None:
                chunk = connection.recv(65536)
                if not chunk:
                    raise ConnectionError("Redis closed the connection")
                buffer += chunk
                continue
            replies.append(parse(buffer, position)[0])
            position = end
        return replies


class RedisProxy:
    """The proxy as a child process (its own interpreter: the harness's threads never hold up a reply),
    listening on a loopback port of its own and relaying to Redis on `upstream_port`; commands to it are
    lines on its standard input, answered on its standard output. Stopped by `close` (its PID)."""

    def __init__(self, upstream_port: int, seed: int = 0) -> None:
        self.upstream_port, self.port = upstream_port, free_port()
        self.proc = subprocess.Popen(
            [sys.executable, __file__, str(self.port), str(upstream_port), str(seed)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        assert self.proc.stdout.readline().strip() == "ready", "the Redis proxy did not start"

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}"

    def ask(self, line: str) -> str:
        self.proc.stdin.write(line + "\n")
        return self.proc.stdout.readline().strip()

    def arm(self, kind: str) -> None:
        assert kind in KINDS, kind
        assert self.ask(f"arm {kind}") == "ok"

    def disarm(self) -> None:
        """Stops damaging replies, and returns once no reply is held back or dripped any more (a replica's
        call still waiting on one fails after it, and would fail the operations after the window)."""
        assert self.ask("disarm") == "ok"
        deadline = time.monotonic() + 30
        while int(self.ask("holding")) and time.monotonic() < deadline:
            time.sleep(0.02)

    @property
    def fired(self) -> dict[str, int]:
        """Replies each fault changed since the start."""
        return json.loads(self.ask("fired"))

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.stdin.close()
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


class ProxyServer:
    """The proxy's loop (in the child process)."""

    def __init__(self, upstream_port: int, seed: int) -> None:
        self.upstream_port = upstream_port
        self.random = random.Random(seed)
        self.armed: str | None = None
        self.fired = {kind: 0 for kind in KINDS}
        self.holding = 0  # replies being held back or dripped now

    async def run(self, port: int) -> None:
        server = await asyncio.start_server(self._serve, "127.0.0.1", port)
        loop = asyncio.get_running_loop()
        commands = asyncio.StreamReader()
        await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(commands), sys.stdin)
        print("ready", flush=True)
        while line := (await commands.readline()).decode().split():
            if line[0] == "arm":
                self.armed = line[1]
            elif line[0] == "disarm":
                self.armed = None
            if line[0] == "fired":
                print(json.dumps(self.fired), flush=True)
            elif line[0] == "holding":
                print(self.holding, flush=True)
            else:
                print("ok", flush=True)
        # The harness closed our input: stop at once (the kernel closes every connection).
        server.close()
        os._exit(0)

    async def _serve(self, client_reader: asyncio.StreamReader, client_writer: asyncio.StreamWriter) -> None:
        try:
            upstream_reader, upstream_writer = await asyncio.open_connection("127.0.0.1", self.upstream_port)
        except OSError:  # Redis is down: the replica sees its connection closed, as with Redis itself
            client_writer.close()
            return
        # Either direction ending (the replica closed, Redis closed, a truncation) ends both: a reply still
        # being held back or dripped to a replica that gave up is dropped with its connection.
        tasks = [asyncio.ensure_future(self._commands(client_reader, upstream_writer)),
                 asyncio.ensure_future(self._replies(upstream_reader, client_writer))]
        await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        for writer in (client_writer, upstream_writer):
            writer.close()

    @staticmethod
    async def _commands(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while chunk := await reader.read(65536):
                writer.write(chunk)
                await writer.drain()
        except OSError:
            pass
        writer.close()

    async def _replies(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        """Relays whole replies, each damaged by the fault armed when it is complete; returns when either
        side closes (or a `truncate` closes)."""
        buffer = bytearray()
        while chunk := await reader.read(65536):
            buffer += chunk
            while buffer and (end := reply_end(buffer)) is not None:
                reply = bytes(buffer[:end])
                del buffer[:end]
                kind = self.armed
                if kind:
                    self.fired[kind] += 1
                if kind in ("delay", "split"):
                    self.holding += 1
                    try:
                        if kind == "delay":
                            await asyncio.sleep(self.random.uniform(0.2, 1.5))
                            writer.write(reply)
                        else:
                            interval = self.random.uniform(0.005, 0.08)
                            for index in range(len(reply)):
                                writer.write(reply[index:index + 1])
                                await writer.drain()
                                await asyncio.sleep(interval)
                    finally:
                        self.holding -= 1
                elif kind == "truncate":
                    writer.write(reply[:max(1, len(reply) // 2)])
                    await writer.drain()
                    return
                elif kind == "duplicate":
                    writer.write(reply + reply)
                else:
                    writer.write(reply)
                await writer.drain()


if __name__ == "__main__":
    asyncio.run(ProxyServer(int(sys.argv[2]), int(sys.argv[3])).run(int(sys.argv[1])))
