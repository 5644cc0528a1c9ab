"""Run Neo4j Community on this machine without Docker: Java plus Maven is all it takes (Java 17
for Neo4j 5, 21 or newer for the calendar versions; ``server/java.py`` picks the JDK).

Maven resolves the Neo4j server and the Neo4j Browser jars once into the cache directory; the
server then runs as a detached ``java`` process bound to 127.0.0.1 only. The user's server keeps
its data in the cache so it survives restarts; ``LocalNeo4j.throwaway()`` is a private server for
tests and benchmarks, with its own home and free ports, removed when it stops.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import zipfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TypeVar

from belief_graph.errors import ConfigError, StoreUnavailable
from belief_graph.server import classes
from belief_graph.server.java import Java, find_java, required_java
from belief_graph.server.status import (
    HOST,
    ServerStatus,
    database_answers,
    free_port,
    http_root,
    port_open,
    require_tool,
    resource_path,
)
from belief_graph.settings import ServerSettings

T = TypeVar("T")

# Neo4j 5's main class, and the calendar versions' (2026.x); the jar says which it holds.
_ENTRY_POINTS = ("org.neo4j.server.CommunityEntryPoint", "org.neo4j.server.Neo4jCommunity")
_HEAP_INITIAL = "1g"
_HEAP_MAX = "2g"
_PAGECACHE = "1g"
_JAVA_FLAGS = (
    "--add-opens=java.base/java.nio=ALL-UNNAMED",
    "--add-opens=java.base/java.io=ALL-UNNAMED",
    "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
    "--enable-native-access=ALL-UNNAMED",
    "-Dio.netty.tryReflectionSetAccessible=true",
    "-XX:+ExitOnOutOfMemoryError",
)
# Lucene, under Neo4j's vector index, computes vector similarities with the JDK's Vector API
# (SIMD) when its incubator module is readable, on Java 21 and newer; without it Neo4j warns
# and falls back to scalar code. Measured here on 2026.08.1, 100k claims: a filtered index read
# 8.75 -> 5.78 ms p50, side by side (docs/benchmarks.md). On Java 17 Lucene only warns that it
# is too old.
_JVM_ADDITIONAL = "server.jvm.additional"
_VECTOR_API_FLAG = "--add-modules=jdk.incubator.vector"
_VECTOR_API_JAVA = 21
# Erase cannot reach transaction logs that are kept: keep only the newest log file once a
# checkpoint has passed, and rotate small files so an erased value leaves the logs soon.
# ``belief-graph neo4j compact`` leaves none at all (docs/threat-model.md).
_ERASURE_AWARE = (
    "db.tx_log.rotation.retention_policy=1 files",
    "db.tx_log.rotation.size=16M",
    "db.checkpoint.interval.time=5m",
)
_SETTING = re.compile(r"[a-z][a-z0-9_]*(\.[a-z0-9_]+)+")
_THROWAWAY_DIR = "throwaway"
_OWNER_FILE = "owner.pid"
# Where a throwaway server that needs no durability keeps its store: a RAM-backed folder, so a
# commit's sync costs nothing (here a synced 4 KB write took 0.001 ms there against 0.2-2 ms on
# disk). Only the test suite asks for it: benchmarks measure a store on disk, as users run it.
_RAM_DIRS = (Path("/dev/shm"),)
_RAM_NEEDED = 2 * 1024**3

# Popen handles of servers started by this process. Keeping them referenced lets stop() reap
# the child (no zombie that would still look alive to os.kill(pid, 0)).
_CHILDREN: dict[int, subprocess.Popen[bytes]] = {}


def _pid_alive(pid: int) -> bool:
    # Reap first: a zombie child of ours still passes os.kill(pid, 0).
    with contextlib.suppress(ChildProcessError, OSError):
        os.waitpid(pid, os.WNOHANG)
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _entry_point(lib_dir: Path, version: str) -> str:
    """The server's main class: Neo4j 5's, or the one the calendar versions renamed it to."""
    jar = lib_dir / f"neo4j-{version}.jar"
    with contextlib.suppress(OSError, zipfile.BadZipFile), zipfile.ZipFile(jar) as archive:
        names = set(archive.namelist())
        for entry in _ENTRY_POINTS:
            if entry.replace(".", "/") + ".class" in names:
                return entry
    raise ConfigError(f"{jar} holds none of the Neo4j entry points {', '.join(_ENTRY_POINTS)}")


@contextlib.contextmanager
def _file_lock(path: Path) -> Iterator[None]:
    """Hold an exclusive lock on ``path`` (created if missing): one process (or thread) at a
    time resolves the jars, or starts or stops one server home. The OS drops it if we die."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _log(message: str) -> None:
    print(f"belief-graph: {message}", file=sys.stderr, flush=True)


class LocalNeo4j:
    """A Neo4j Community server run from jars in the cache directory (no Docker).

    Layout under ``ServerSettings.cache_dir``: ``neo4j-<version>/lib`` (the jars, shared by
    every server of that version) and ``server-<version>/`` (the user's server: conf, data, logs,
    pid file). A throwaway server's home is a fresh directory under ``throwaway/``.
    """

    def __init__(self, settings: ServerSettings | None = None, home: Path | None = None) -> None:
        self.settings = settings or ServerSettings()
        cache = self.settings.cache_dir.expanduser()
        version = self.settings.neo4j_version
        self.lib_dir = cache / f"neo4j-{version}" / "lib"
        self.home = home or cache / f"server-{version}"
        self.is_throwaway = home is not None
        self.conf_dir = self.home / "conf"
        self.pid_file = self.home / "run" / "neo4j.pid"
        self.log_file = self.home / "logs" / "console.log"

    @classmethod
    def throwaway(
        cls, settings: ServerSettings | None = None, *, in_memory: bool = False
    ) -> LocalNeo4j:
        """A private server that shares nothing with the user's but the jars: its own home (a
        fresh directory under the cache) and Bolt and HTTP ports free right now. Not started;
        ``discard()`` stops it and deletes its home.

        ``in_memory`` puts the home on a RAM-backed folder where the machine has one with room
        (a store for tests: isolation, not durability); elsewhere it stays under the cache.
        Servers left behind by a process that died (a killed test run) are discarded first.
        """
        base = settings or ServerSettings()
        ram = ram_dir() if in_memory else None
        parent = (
            base.cache_dir.expanduser() / _THROWAWAY_DIR
            if ram is None
            else ram / f"belief-graph-{_THROWAWAY_DIR}"
        )
        parent.mkdir(parents=True, exist_ok=True)
        _discard_orphans(parent, base)
        home = Path(tempfile.mkdtemp(prefix=f"server-{base.neo4j_version}-", dir=parent))
        (home / _OWNER_FILE).write_text(f"{os.getpid()}\n")
        ports = {"bolt_port": free_port(), "http_port": free_port()}
        while ports["http_port"] == ports["bolt_port"]:
            ports["http_port"] = free_port()
        return cls(base.model_copy(update=ports), home=home)

    def discard(self) -> None:
        """Stop a throwaway server and delete its home (its data goes with it)."""
        if not self.is_throwaway:
            raise ConfigError("discard() is for throwaway servers; the user's server is kept")
        self.stop()
        shutil.rmtree(self.home, ignore_errors=True)

    @property
    def bolt_uri(self) -> str:
        """The Bolt URI clients connect to."""
        return f"bolt://{HOST}:{self.settings.bolt_port}"

    @property
    def browser_url(self) -> str:
        """The Neo4j Browser URL."""
        return f"http://{HOST}:{self.settings.http_port}/browser/"

    def missing_tools(self) -> list[str]:
        """Tools the launcher needs but cannot find (``mvn`` only until the jars are resolved)."""
        missing = []
        try:
            find_java(self.settings.neo4j_version, self.settings)
        except ConfigError:
            missing.append(f"java {required_java(self.settings.neo4j_version)}+")
        if not self._resolved() and shutil.which("mvn") is None:
            missing.append("mvn")
        return missing

    def _resolved(self) -> bool:
        names = (
            f"neo4j-{self.settings.neo4j_version}.jar",
            f"neo4j-server-{self.settings.neo4j_version}.jar",
            f"neo4j-browser-{self.settings.neo4j_browser_version}.jar",
        )
        return all((self.lib_dir / name).is_file() for name in names)

    def resolve(self) -> Path:
        """Download the Neo4j and Neo4j Browser jars with Maven, once; return the lib dir.

        Two processes resolving at once take turns: the second finds the jars in place."""
        if self._resolved():
            return self.lib_dir
        with _file_lock(self.lib_dir.with_name("resolve.lock")):
            if self._resolved():
                return self.lib_dir
            return self._resolve()

    def _resolve(self) -> Path:
        mvn = require_tool("mvn", "Maven (and Java) to use the local launcher")
        find_java(self.settings.neo4j_version, self.settings)
        pom = resource_path("launcher", "pom.xml")
        # Resolve into a scratch dir and rename: an interrupted download never looks complete,
        # and a changed Browser version does not leave two Browser jars on the class path.
        partial = self.lib_dir.with_name(f"lib.partial-{os.getpid()}")
        shutil.rmtree(partial, ignore_errors=True)
        partial.parent.mkdir(parents=True, exist_ok=True)
        _log(
            f"resolving Neo4j {self.settings.neo4j_version} and Neo4j Browser "
            f"{self.settings.neo4j_browser_version} with Maven (once, about 135 MB) ..."
        )
        started = time.monotonic()
        cmd = [
            mvn,
            "-q",
            "-B",
            "-f",
            str(pom),
            "dependency:copy-dependencies",
            f"-DoutputDirectory={partial}",
            "-DincludeScope=runtime",
            f"-Dneo4j.version={self.settings.neo4j_version}",
            f"-Dneo4j.browser.version={self.settings.neo4j_browser_version}",
        ]
        result = subprocess.run(cmd, capture_output=True, text=True, check=False)
        if result.returncode != 0:
            shutil.rmtree(partial, ignore_errors=True)
            output = (result.stdout + result.stderr).strip().splitlines()
            errors = [line for line in output if "ERROR" in line] or output or ["(no output)"]
            tail = "\n".join(output[-15:])
            raise ConfigError(
                f"Maven could not resolve Neo4j (exit {result.returncode}): {errors[0]}\n{tail}"
            )
        shutil.rmtree(self.lib_dir, ignore_errors=True)
        partial.rename(self.lib_dir)
        if not self._resolved():
            raise ConfigError(f"Maven finished but the Neo4j jars are not in {self.lib_dir}")
        jars = len(list(self.lib_dir.glob("*.jar")))
        _log(f"resolved {jars} jars in {time.monotonic() - started:.0f} s into {self.lib_dir}")
        return self.lib_dir

    def _read_pid(self) -> int | None:
        try:
            return int(self.pid_file.read_text().strip())
        except (OSError, ValueError):
            return None

    def _is_ours(self, pid: int) -> bool:
        """Whether ``pid`` is a live Neo4j server running from this server home."""
        if not _pid_alive(pid):
            return False
        try:
            raw = Path(f"/proc/{pid}/cmdline").read_bytes()
        except OSError:
            # No procfs (macOS): trust the pid file as long as the process lives.
            return True
        args = raw.decode("utf-8", "replace").split("\0")
        return bool(set(_ENTRY_POINTS) & set(args)) and f"--home-dir={self.home}" in args

    def _server_pid(self) -> int | None:
        pid = self._read_pid()
        return pid if pid is not None and self._is_ours(pid) else None

    def is_running(self) -> bool:
        """Whether our server process is alive and accepting Bolt connections."""
        return self._server_pid() is not None and port_open(self.settings.bolt_port)

    def _write_conf(self) -> None:
        for sub in ("conf", "data", "logs", "run", "import", "plugins"):
            (self.home / sub).mkdir(parents=True, exist_ok=True)
        # Auth is off because the server binds 127.0.0.1 only: it is a single-user dev database
        # on this machine. Anything reachable from a network uses docker/compose.yaml (auth on).
        lines = [
            f"server.default_listen_address={HOST}",
            f"server.bolt.listen_address={HOST}:{self.settings.bolt_port}",
            f"server.http.listen_address={HOST}:{self.settings.http_port}",
            # Advertised as bound: a routing (neo4j://) driver is sent back to these addresses,
            # not to the default localhost:7687 of another server.
            f"server.default_advertised_address={HOST}",
            f"server.bolt.advertised_address={HOST}:{self.settings.bolt_port}",
            f"server.http.advertised_address={HOST}:{self.settings.http_port}",
            "server.http.enabled=true",
            "server.https.enabled=false",
            "dbms.security.auth_enabled=false",
            "dbms.usage_report.enabled=false",
            f"server.memory.heap.initial_size={_HEAP_INITIAL}",
            f"server.memory.heap.max_size={_HEAP_MAX}",
            f"server.memory.pagecache.size={_PAGECACHE}",
            "server.directories.data=data",
            "server.directories.logs=logs",
            "server.directories.import=import",
            "server.directories.plugins=plugins",
            "server.directories.run=run",
        ]
        # On stop, after its databases have stopped (checkpointed), Neo4j gave its Bolt thread
        # pools 5 s to wind down, idle or not: every stop took 5.2 s here, 0.3 s without the
        # wait (a compaction stops the server twice, the suite's fault tests kill and restart).
        lines += [
            "internal.server.bolt.connection_shutdown_wait_time=0s",
            "internal.server.bolt.thread_pool_shutdown_wait_time=0s",
        ]
        if self.is_throwaway:
            # A test server is thrown away: no 2 x 256 MB of preallocated transaction logs.
            lines.append("db.tx_log.preallocate=false")
        lines += _ERASURE_AWARE
        lines = merge_conf(lines, self.settings.neo4j_conf)
        (self.conf_dir / "neo4j.conf").write_text(
            "# Written by belief-graph's launcher on every start; edits are overwritten.\n"
            "# Put your own settings in the file BELIEF_GRAPH_NEO4J_CONF names instead.\n"
            + "\n".join(lines)
            + "\n"
        )

    def _command(self, java: Java) -> list[str]:
        entry_point = _entry_point(self.lib_dir, self.settings.neo4j_version)
        vector_api = [_VECTOR_API_FLAG] if java.major >= _VECTOR_API_JAVA else []
        # Neo4j's scripts size the heap from neo4j.conf; the launcher starts java itself, so it
        # takes the heap the override sets, as they would.
        mine = read_conf(self.settings.neo4j_conf) if self.settings.neo4j_conf else {}
        return [
            java.path,
            f"-Xms{mine.get('server.memory.heap.initial_size', _HEAP_INITIAL)}",
            f"-Xmx{mine.get('server.memory.heap.max_size', _HEAP_MAX)}",
            *_JAVA_FLAGS,
            *vector_api,
            *classes.jvm_flags(self.home, self.lib_dir, java),
            *jvm_options(self.settings.neo4j_conf),
            "-cp",
            f"{self.lib_dir}{os.sep}*",
            entry_point,
            f"--home-dir={self.home}",
            f"--config-dir={self.conf_dir}",
            "--console-mode",
        ]

    def _log_tail(self, lines: int = 20) -> str:
        try:
            text = self.log_file.read_text(errors="replace")
        except OSError:
            return "(no log)"
        return "\n".join(text.strip().splitlines()[-lines:])

    def _ready(self) -> bool:
        return (
            port_open(self.settings.bolt_port)
            and http_root(self.settings.http_port) is not None
            and database_answers(self.settings.http_port)
        )

    def _wait_ready(self, pid: int, wait_seconds: float) -> None:
        deadline = time.monotonic() + wait_seconds
        while time.monotonic() < deadline:
            if not _pid_alive(pid):
                self.pid_file.unlink(missing_ok=True)
                raise StoreUnavailable(
                    f"Neo4j exited during start-up; see {self.log_file}:\n{self._log_tail()}"
                )
            if self._ready():
                return
            time.sleep(0.25)
        self._stop(30)  # the caller holds the launcher lock: stop() would wait for itself
        raise StoreUnavailable(
            f"Neo4j did not answer on Bolt and HTTP within {wait_seconds:.0f} s; "
            f"see {self.log_file}:\n{self._log_tail()}"
        )

    @property
    def _lock_file(self) -> Path:
        return self.home / "run" / "launcher.lock"

    def start(self, wait_seconds: float = 120) -> ServerStatus:
        """Start the server (resolving it first if needed) and wait until Bolt and HTTP answer.

        Returns at once if our server is already running. Two processes starting the same server
        take turns (a file lock): the second finds the first one's server and waits for it, so
        one home never runs two JVMs. Raises ``ConfigError`` if Java or Maven is missing or
        another process holds the Bolt or HTTP port, ``StoreUnavailable`` if the server does not
        come up within ``wait_seconds``.
        """
        with _file_lock(self._lock_file):
            return self._start(wait_seconds)

    def _start(self, wait_seconds: float) -> ServerStatus:
        pid = self._server_pid()
        if pid is not None:
            # Running, or still starting (perhaps launched by another process): wait for it.
            self._wait_ready(pid, wait_seconds)
            return self.status()
        self.pid_file.unlink(missing_ok=True)
        for name, port in (("Bolt", self.settings.bolt_port), ("HTTP", self.settings.http_port)):
            if port_open(port):
                raise ConfigError(
                    f"{HOST}:{port} ({name}) is in use by another process; stop it or set "
                    f"BELIEF_GRAPH_{name.upper()}_PORT to a free port"
                )
        java = find_java(self.settings.neo4j_version, self.settings)
        self.resolve()
        self._write_conf()
        _log(
            f"starting Neo4j {self.settings.neo4j_version} (Java {java.major}) on "
            f"{self.bolt_uri} ..."
        )
        started = time.monotonic()
        with self.log_file.open("ab") as log:
            log.write(f"\n--- belief-graph launcher start {time.ctime()} ---\n".encode())
            log.flush()
            proc = subprocess.Popen(
                self._command(java),
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                cwd=self.home,
                start_new_session=True,
            )
        _CHILDREN[proc.pid] = proc
        self.pid_file.write_text(f"{proc.pid}\n")
        self._wait_ready(proc.pid, wait_seconds)
        _log(f"Neo4j is up after {time.monotonic() - started:.1f} s (pid {proc.pid})")
        return self.status()

    def _signal_group(self, pid: int, sig: signal.Signals) -> None:
        try:
            os.killpg(pid, sig)
        except ProcessLookupError:
            return
        except PermissionError:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, sig)

    def _wait_exit(self, pid: int, timeout: float) -> bool:
        child = _CHILDREN.get(pid)
        if child is not None:
            try:
                child.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                return False
            _CHILDREN.pop(pid, None)
            return True
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if not _pid_alive(pid):
                return True
            time.sleep(0.1)
        return not _pid_alive(pid)

    def stop(self, timeout: float = 30) -> bool:
        """Stop the server: SIGTERM its process group, SIGKILL after ``timeout`` seconds.

        Returns True if a server was running. Only a process started from this server home is
        ever signalled.
        """
        with _file_lock(self._lock_file):
            return self._stop(timeout)

    def _stop(self, timeout: float) -> bool:
        pid = self._server_pid()
        if pid is None:
            self.pid_file.unlink(missing_ok=True)
            classes.keep(self.home, self.lib_dir, clean_exit=False)
            return False
        self._signal_group(pid, signal.SIGTERM)
        clean_exit = self._wait_exit(pid, timeout)
        if not clean_exit:
            self._signal_group(pid, signal.SIGKILL)
            if not self._wait_exit(pid, 10):
                raise StoreUnavailable(f"Neo4j (pid {pid}) survived SIGKILL")
        self.pid_file.unlink(missing_ok=True)
        classes.keep(self.home, self.lib_dir, clean_exit=clean_exit)
        return True

    def replace_store(
        self,
        save: Callable[[], T],
        refill: Callable[[T], None],
        *,
        wait_seconds: float = 120,
        timeout: float = 30,
    ) -> T:
        """Swap the server's store for a fresh one, holding the launcher lock throughout: with
        the server running, ``save()``; stop it; move ``data/`` aside; start on an empty store
        and ``refill(saved)``. The old store is deleted only once ``refill`` returned; if
        anything fails it is put back and the server started on it again."""
        data, backup = self.home / "data", self.home / "data.before-compact"
        if self.settings.neo4j_conf is not None:
            read_conf(self.settings.neo4j_conf)  # a bad file is refused before anything stops
        with _file_lock(self._lock_file):
            if backup.exists():
                raise ConfigError(
                    f"{backup} exists: an earlier compaction did not finish. It holds the store "
                    f"as it was; stop Neo4j, move it back to {data}, then compact again"
                )
            self._start(wait_seconds)
            saved = save()
            self._stop(timeout)
            data.rename(backup)
            try:
                self._start(wait_seconds)
                refill(saved)
            except BaseException:
                self._stop(timeout)
                shutil.rmtree(data, ignore_errors=True)
                backup.rename(data)
                self._start(wait_seconds)
                raise
            shutil.rmtree(backup)
        return saved

    def kill(self) -> bool:
        """SIGKILL the server without a clean shutdown (for fault-injection tests)."""
        pid = self._server_pid()
        if pid is None:
            return False
        self._signal_group(pid, signal.SIGKILL)
        if not self._wait_exit(pid, 10):
            raise StoreUnavailable(f"Neo4j (pid {pid}) survived SIGKILL")
        self.pid_file.unlink(missing_ok=True)
        return True

    def status(self) -> ServerStatus:
        """Whether the server runs, its pid, Bolt URI, Browser URL and version."""
        pid = self._server_pid()
        running = pid is not None and port_open(self.settings.bolt_port)
        version = None
        if running:
            root = http_root(self.settings.http_port)
            version = str(root["neo4j_version"]) if root and "neo4j_version" in root else None
        return ServerStatus(
            running=running,
            pid=pid,
            bolt_uri=self.bolt_uri,
            browser_url=self.browser_url,
            version=version,
        )


def read_conf(path: Path) -> dict[str, str]:
    """The settings of a user's override file: ``key=value`` lines, blank lines and ``#``
    comments ignored. A line that is not a Neo4j setting is a ``ConfigError`` naming it."""
    try:
        text = path.expanduser().read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigError(
            f"BELIEF_GRAPH_NEO4J_CONF: cannot read {path}: {exc.strerror or exc}"
        ) from exc
    settings: dict[str, str] = {}
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        key, equals, value = line.partition("=")
        key, value = key.strip(), value.strip()
        if not equals or not _SETTING.fullmatch(key) or not value:
            raise ConfigError(
                f"BELIEF_GRAPH_NEO4J_CONF: {path}, line {number}: expected `setting.name=value` "
                f"(a Neo4j setting such as db.tx_log.rotation.retention_policy=1 files), "
                f"got {raw.strip()!r}"
            )
        settings[key] = value
    return settings


def jvm_options(override: Path | None) -> list[str]:
    """The JVM options of the override file's ``server.jvm.additional`` lines, one option a line
    and the key repeatable, as Neo4j's own scripts read them: the launcher starts the JVM
    itself, so it passes them on (a test server's ``-XX:TieredStopAtLevel=1``, docs/testing.md)."""
    if override is None:
        return []
    read_conf(override)  # a bad file is refused, naming the line
    found = []
    for raw in override.expanduser().read_text(encoding="utf-8").splitlines():
        key, _, value = raw.strip().partition("=")
        if key.strip() == _JVM_ADDITIONAL:
            found.append(value.strip())
    return found


def merge_conf(lines: list[str], override: Path | None) -> list[str]:
    """The generated ``key=value`` lines with the override file's settings merged in: a key
    set in both takes the override's value, a new key is added."""
    if override is None:
        return lines
    extra = read_conf(override)
    merged = []
    for line in lines:
        key = line.partition("=")[0]
        merged.append(f"{key}={extra.pop(key)}" if key in extra else line)
    merged += [f"{k}={v}" for k, v in extra.items()]
    conf = dict(line.split("=", 1) for line in merged)
    exposed = [
        k for k, v in conf.items() if k.endswith("listen_address") and not v.startswith(HOST)
    ]
    if exposed and conf.get("dbms.security.auth_enabled", "true").lower() != "true":
        raise ConfigError(
            f"BELIEF_GRAPH_NEO4J_CONF: {override} makes {exposed[0]} listen beyond {HOST} with "
            "auth off; set dbms.security.auth_enabled=true too (see docs/threat-model.md)"
        )
    return merged


def ram_dir() -> Path | None:
    """A writable RAM-backed folder with room for a test store, or None where there is none."""
    for folder in _RAM_DIRS:
        try:
            stats = os.statvfs(folder)
        except OSError:
            continue
        if os.access(folder, os.W_OK) and stats.f_bavail * stats.f_frsize >= _RAM_NEEDED:
            return folder
    return None


def _discard_orphans(parent: Path, settings: ServerSettings) -> None:
    """Stop and delete the throwaway servers whose owning process is gone."""
    for home in parent.iterdir():
        try:
            owner = int((home / _OWNER_FILE).read_text().strip())
        except (OSError, ValueError):
            # No owner yet: perhaps another process is creating it this very moment.
            with contextlib.suppress(OSError):
                if time.time() - home.stat().st_mtime < 60:
                    continue
            owner = None
        if owner is not None and _pid_alive(owner):
            continue
        with contextlib.suppress(StoreUnavailable):
            LocalNeo4j(settings, home=home).stop()
        shutil.rmtree(home, ignore_errors=True)
