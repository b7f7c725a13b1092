#!/usr/bin/env python3
"""Aivory's stateful Python worker, protocol 1.

The sidecar starts this inside the runner container (`docker exec -i … python3 -u
/opt/aivory/worker.py`) and speaks JSON lines (one UTF-8 JSON object per line) over its stdin and
stdout. Stderr carries only the worker's own fatal diagnostics.

    ← {"type":"ready","protocol":1,"pid":…,"python":"3.11.2","modules":{"numpy":true,…}}
    → {"id":1,"type":"ping"}                    ← {"id":1,"type":"pong","pid":…}
    → {"id":2,"type":"exec","code":"x = 6*7\nx","max_output_bytes":65536}
    ← {"id":2,"type":"result","status":"ok"|"error"|"interrupted","stdout":"42\n","stderr":"",
       "error":null|"<traceback>","duration_ms":0.4,"outputs":[{"path","size","mime"}],
       "stdout_truncated_bytes":0,"stderr_truncated_bytes":0}
    → {"id":3,"type":"shutdown"}                ← {"id":3,"type":"bye"}, then exit 0 (EOF too)
    ← {"id":null|<id>,"type":"protocol-error","message":"…"} for a bad or >16 MiB line

Memory: started with `--memory-limit=<bytes>` (the container's cgroup limit; without it the
worker reads the cgroup itself), the worker caps its own data segment (RLIMIT_DATA) a margin
below that limit, so an oversized allocation raises MemoryError in the cell instead of waking the
kernel's OOM killer. `ready` carries "memory_rlimit" (bytes or null) and, like every result,
"oom_kills": the cgroup's OOM-kill counter (null when unreadable). A sidecar whose worker died
compares it with a fresh reading to tell an OOM kill from other deaths.

Control requests are answered by a reader thread at once, even while a cell runs (so the sidecar
needs no `docker exec` to stop code, which also works when a fork bomb has used up every pid):
    → {"id":4,"type":"interrupt"}               ← {"id":4,"type":"interrupt-ack","delivered":true}
    → {"id":5,"type":"reap-strays"}             ← {"id":5,"type":"strays-reaped","count":12}
    → {"id":6,"type":"terminate"}               ← {"id":6,"type":"terminating"}, then SIGKILL
"interrupt" raises KeyboardInterrupt in the running cell; "reap-strays" kills every other process
in the worker's process group (subprocesses, fork bombs); "terminate" does that and kills the
worker itself, for code that ignores SIGINT.

Cells share one globals dict, like a notebook; SIGINT interrupts a running cell and is ignored
while idle. The real stdin/stdout are moved to private file descriptors used only for protocol
lines, so nothing the code does (print, os.write(1, …), subprocesses, C extensions, input())
can corrupt the channel. Standard library only; matplotlib only if the user imports it.
"""

import ast
import builtins
import json
import linecache
import os
import platform
import signal
import sys
import queue
import resource
import threading
import time
import traceback
import types

HERE = os.path.dirname(os.path.abspath(__file__))
from _aivory_capture import CapBuffer, CappedTextWriter, feed_from_fd  # noqa: E402
from _aivory_outputs import Figures, changed_files, snapshot, workspace_stamp  # noqa: E402

PROTOCOL = 1
MAX_LINE_BYTES = 16 * 1024 * 1024
DEFAULT_MAX_OUTPUT = 65536
MAX_OUTPUT_CEILING = 16 * 1024 * 1024  # larger requests are clamped: a result is one JSON line
CELL = "<cell>"
EXPECTED_MODULES = ("numpy", "pandas", "matplotlib", "docx", "openpyxl", "xlsxwriter", "pptx",
                    "pypdf", "PIL", "bs4", "weasyprint")
# Frames from these files are the worker's, not the user's: tracebacks start below them.
OWN_FILES = ("worker.py", "_aivory_capture.py", "_aivory_outputs.py")
TOO_LONG = object()


class Channel:
    """The protocol pipe. Takes over fds 0 and 1 so user code cannot reach the sidecar."""

    def __init__(self):
        # os.dup gives non-inheritable fds: subprocesses of user code never see the channel.
        self._in = open(os.dup(0), "rb", buffering=1 << 16)
        self._out = os.dup(1)
        self.diag = os.dup(2)  # the worker's own fatal diagnostics
        self._send_lock = threading.Lock()
        devnull = os.open(os.devnull, os.O_RDONLY)
        os.dup2(devnull, 0)  # input() now gets EOF instead of eating protocol lines
        os.close(devnull)

    def read(self):
        """The next request line (bytes), None at EOF, or TOO_LONG."""
        line = self._in.readline(MAX_LINE_BYTES + 1)
        if not line:
            return None
        if len(line) > MAX_LINE_BYTES and not line.endswith(b"\n"):
            while True:  # drain the rest of the oversized line without keeping it
                chunk = self._in.readline(1 << 20)
                if not chunk or chunk.endswith(b"\n"):
                    return TOO_LONG
        return line

    def send(self, message):
        # ASCII JSON: lone surrogates (odd file names) cannot break UTF-8 framing.
        data = memoryview((json.dumps(message, separators=(",", ":")) + "\n").encode("ascii"))
        with self._send_lock:  # the control thread answers while a cell runs
            while data:
                data = data[os.write(self._out, data):]


class FdCapture:
    """Points fds 1 and 2 at unlinked temp files, so output below Python's sys.stdout (os.write,
    subprocesses, C code) is captured too. Read back with the same head/tail cap."""

    def __init__(self):
        tmpdir = os.environ.get("TMPDIR") or "/tmp"
        self.fds = []
        for target in (1, 2):
            path = os.path.join(tmpdir, f"aivory-{os.getpid()}-fd{target}")
            # O_APPEND: after a truncate, writers that share the fd (children) restart at 0.
            fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND, 0o600)
            os.unlink(path)
            self.fds.append((target, fd))
        self.reset()

    def reset(self):
        for target, fd in self.fds:
            os.dup2(fd, target)  # also repairs a cell that closed or replaced fd 1/2
            os.ftruncate(fd, 0)

    def collect(self, caps):
        _flush_c_stdio()
        for (_target, fd), cap in zip(self.fds, caps):
            feed_from_fd(cap, fd)


def _flush_c_stdio():
    """printf() from C extensions sits in libc's buffer (fd 1 is a file, not a tty)."""
    try:
        import ctypes
        ctypes.CDLL(None).fflush(None)
    except Exception:
        pass


class CellSources:
    """Maps code objects to the source of the cell that defined them, so a traceback through a
    function from an earlier cell shows that cell's lines, although every cell is "<cell>".
    Old cells are forgotten past a size budget; their frames then show no source line."""

    MAX_BYTES = 16 * 1024 * 1024

    def __init__(self):
        self._code = {}  # id(code) -> (code, cell number); holding code keeps the id unique
        self._cells = {}  # cell number -> (lines, [ids], size), oldest first
        self._bytes = 0
        self._count = 0

    def add(self, lines, *codes):
        self._count += 1
        number, ids, size = self._count, [], sum(map(len, lines))
        stack = list(codes)
        while stack:
            c = stack.pop()
            self._code[id(c)] = (c, number)
            ids.append(id(c))
            stack.extend(k for k in c.co_consts if isinstance(k, types.CodeType))
        self._cells[number] = (lines, ids, size)
        self._bytes += size
        while self._bytes > self.MAX_BYTES and len(self._cells) > 1:
            old = next(iter(self._cells))
            _lines, old_ids, old_size = self._cells.pop(old)
            self._bytes -= old_size
            for i in old_ids:
                if self._code.get(i, (None, None))[1] == old:
                    del self._code[i]

    def lines_for(self, code):
        entry = self._code.get(id(code))
        if entry is None or entry[0] is not code or entry[1] not in self._cells:
            return None
        return self._cells[entry[1]][0]


class Worker:
    def __init__(self, channel, workspace):
        self.channel = channel
        self.workspace = workspace
        self.capture = FdCapture()
        self.figures = Figures(os.path.join(workspace, "outputs"))
        self.sources = CellSources()
        self.running = False  # True only while user code runs: SIGINT interrupts it then
        self.cells = 0  # cells run by this worker; the first also reports the stamp before it
        self.memory_limit = None  # the container's limit and this process's cap (bytes or None)
        self.memory_rlimit = None
        # A fresh __main__ module: pickle and `import __main__` must find user definitions.
        main = types.ModuleType("__main__")
        main.__dict__["__builtins__"] = builtins
        sys.modules["__main__"] = main
        self.globals = main.__dict__

    def on_sigint(self, _signum, _frame):
        if self.running:
            raise KeyboardInterrupt
        # Idle: ignore. The sidecar's interrupt may arrive just after a cell finished.

    # --- requests -------------------------------------------------------------------------
    def handle(self, raw):
        """Answers one request line; returns False when the worker should stop."""
        if raw is TOO_LONG:
            return self.protocol_error(None, f"request line longer than {MAX_LINE_BYTES} bytes")
        if not raw.strip():
            return True  # blank lines are ignored
        try:
            req = json.loads(raw)
        except ValueError as exc:  # includes UnicodeDecodeError
            return self.protocol_error(None, f"invalid JSON: {exc}")
        if not isinstance(req, dict):
            return self.protocol_error(None, "a request must be a JSON object")
        rid = req.get("id")
        if not isinstance(rid, int) or isinstance(rid, bool):
            return self.protocol_error(None, "'id' must be an integer")
        kind = req.get("type")
        if kind == "ping":
            self.channel.send({"id": rid, "type": "pong", "pid": os.getpid()})
        elif kind == "shutdown":
            self.channel.send({"id": rid, "type": "bye"})
            return False
        elif kind == "exec":
            code, limit = req.get("code"), req.get("max_output_bytes", DEFAULT_MAX_OUTPUT)
            if not isinstance(code, str):
                return self.protocol_error(rid, "'code' must be a string")
            if not isinstance(limit, int) or isinstance(limit, bool) or limit < 0:
                return self.protocol_error(rid, "'max_output_bytes' must be a non-negative integer")
            self.channel.send(self.execute(rid, code, min(limit, MAX_OUTPUT_CEILING)))
        else:
            return self.protocol_error(rid, f"unknown request type: {kind!r}")
        return True

    def protocol_error(self, rid, message):
        # The id is echoed when it was readable, so the sidecar can fail that one request.
        self.channel.send({"id": rid, "type": "protocol-error", "message": message})
        return True

    # --- exec -----------------------------------------------------------------------------
    def execute(self, rid, code, limit):
        before = snapshot(self.workspace)
        # The sidecar knows a restored workspace matches its save but not its stamp: the first
        # cell's stamp before it lets a cell that changed nothing skip the save.
        stamp_before = workspace_stamp(self.workspace) if self.cells == 0 else None
        self.cells += 1
        out, err = CapBuffer(limit), CapBuffer(limit)
        self.capture.reset()
        if sys.stdin is None or sys.stdin.closed:  # exit() closes sys.stdin
            sys.stdin = open(os.devnull, encoding="utf-8")
        sys.stdout, sys.stderr = CappedTextWriter(out, 1, "<stdout>"), CappedTextWriter(err, 2, "<stderr>")
        signal.signal(signal.SIGINT, self.on_sigint)  # the previous cell may have replaced it
        self.figures.errors = []
        status, error = "ok", None
        started = time.perf_counter()
        for step in (lambda: self.run_cell(code), self.figures.save_open):
            # Figures are saved even after an error: a half-finished chart still helps.
            try:
                self.running = True
                try:
                    step()
                finally:
                    self.running = False
            except KeyboardInterrupt:
                self.running = False  # a second signal may have landed inside the finally
                status, error = "interrupted", "KeyboardInterrupt"
            except SystemExit as exc:
                status = status if status != "ok" else "error"
                detail = "" if exc.code is None else f": {exc.code}"
                error = error or (f"SystemExit{detail}\n(exit() and sys.exit() end only this cell; "
                                  "the interpreter and its variables are kept)")
            except BaseException as exc:
                if status == "ok":
                    status, error = "error", self.format_exception(exc) + self.memory_note(exc)
        duration_ms = (time.perf_counter() - started) * 1000.0
        for message in self.figures.errors:
            sys.stderr.write(message + "\n")
        self.restore_std_streams()
        signal.signal(signal.SIGINT, self.on_sigint)
        self.capture.collect((out, err))
        if error is not None:
            error_cap = CapBuffer(max(limit, 8192))
            error_cap.feed(error.encode("utf-8", "backslashreplace"))
            error = error_cap.text()[0]
        stdout, stdout_cut = out.text()
        stderr, stderr_cut = err.text()
        return {"id": rid, "type": "result", "status": status, "stdout": stdout, "stderr": stderr,
                "error": error, "duration_ms": round(duration_ms, 3),
                "outputs": changed_files(before, snapshot(self.workspace)),
                "stdout_truncated_bytes": stdout_cut, "stderr_truncated_bytes": stderr_cut,
                "oom_kills": oom_kills(), "workspace_stamp": workspace_stamp(self.workspace),
                "workspace_stamp_before": stamp_before}

    def memory_note(self, exc):
        if not isinstance(exc, MemoryError) or self.memory_rlimit is None:
            return ""
        return (f"\nThis session's memory limit is {format_size(self.memory_limit)}; Python may use "
                f"about {format_size(self.memory_rlimit)} of it. The allocation was refused and "
                "variables defined before are kept.\n")

    def run_cell(self, code):
        tree = compile(code, CELL, "exec", ast.PyCF_ONLY_AST)
        lines = code.splitlines(True)
        # Registered in linecache too, for warnings and traceback.print_exc() inside the cell.
        linecache.cache[CELL] = (len(code), None, lines, CELL)
        # Like a notebook: a final expression statement is evaluated and its repr printed.
        last = tree.body.pop() if tree.body and isinstance(tree.body[-1], ast.Expr) else None
        body = compile(tree, CELL, "exec")
        expr = compile(ast.Expression(last.value), CELL, "eval") if last is not None else None
        self.sources.add(lines, body, *([expr] if expr is not None else []))
        exec(body, self.globals)
        if expr is not None:
            value = eval(expr, self.globals)
            if value is not None:
                print(repr(value))

    def format_exception(self, exc):
        tb = exc.__traceback__
        while tb is not None and os.path.basename(tb.tb_frame.f_code.co_filename) in OWN_FILES:
            tb = tb.tb_next
        exc.__traceback__ = tb
        te = traceback.TracebackException(type(exc), exc, tb, lookup_lines=False)
        saved = linecache.cache.get(CELL)
        try:
            self._fill_cell_lines(te, exc, set())
        finally:
            if saved is not None:
                linecache.cache[CELL] = saved
        return "".join(te.format())

    def _fill_cell_lines(self, te, exc, seen):
        """Look up each <cell> frame's line in the cell that frame's code came from."""
        if exc is None or id(exc) in seen:
            return
        seen.add(id(exc))
        frames = [f for f, _ in traceback.walk_tb(exc.__traceback__)]
        for summary, frame in zip(te.stack, frames):
            if summary.filename == CELL:
                lines = self.sources.lines_for(frame.f_code)
                if lines is None:
                    linecache.cache.pop(CELL, None)
                else:
                    linecache.cache[CELL] = (0, None, lines, CELL)
                summary.line  # noqa: B018 - FrameSummary looks the line up once and caches it
        self._fill_cell_lines(te.__cause__, exc.__cause__, seen) if te.__cause__ else None
        self._fill_cell_lines(te.__context__, exc.__context__, seen) if te.__context__ else None
        for sub_te, sub_exc in zip(te.exceptions or (), getattr(exc, "exceptions", ())):
            self._fill_cell_lines(sub_te, sub_exc, seen)

    def restore_std_streams(self):
        for name, fd in (("stdout", 1), ("stderr", 2)):
            original = getattr(sys, f"__{name}__")
            if original is None or original.closed:
                original = open(fd, "w", encoding="utf-8", errors="backslashreplace", closefd=False)
                setattr(sys, f"__{name}__", original)
            try:
                original.flush()  # into the capture files, before they are read
            except Exception:
                pass
            setattr(sys, name, original)

    def shutdown(self):
        # Drop user objects so open files get flushed, then leave without waiting for threads
        # the user started (a non-daemon thread would block a normal interpreter exit forever).
        try:
            self.globals.clear()
            sys.stdout.flush()
            sys.stderr.flush()
        except BaseException:
            pass
        os._exit(0)


# --- memory: MemoryError in the cell before the cgroup's OOM killer -------------------------
# Measured in the runner image (Linux 6.18, cgroup v1, --memory 2g, Python 3.11): after
# importing numpy, pandas and matplotlib, a 500x500 matmul, a 100k-row describe() and a saved
# plot, VmData is 146 MB while VmSize is 271 MB, and 704 MB once eight threads ran numpy (each
# thread's malloc arena reserves 64 MB of address space). RLIMIT_AS would count those
# reservations and break thread-heavy code long before memory is used; RLIMIT_DATA (private
# writable mappings + brk, Linux >= 4.7) counts what Python, numpy and pandas actually allocate.
# `b"x" * 6 GiB` and `np.ones(6 GiB)` then fail in about 0.1 ms. The margin covers what the
# cgroup charges besides the worker's data: shared libraries' pages (file mappings), page cache,
# the tmpfs /tmp and /workspace, kernel memory, subprocesses. With only 256 MiB of margin under
# 2 GiB, filling memory in 10 MiB steps slowed to a crawl near the end (page-cache reclaim at
# the cgroup limit): 1792 MiB took 55 s, 1536 MiB 18 s, 1024 MiB 13 s on a loaded 2-core host.
MEMORY_MARGIN_BASE = 192 * 1024 * 1024
MEMORY_MARGIN_FRACTION = 8  # plus 1/8 of the limit: 2 GiB -> 1600 MiB for the worker's data
MIN_DATA_RLIMIT = 128 * 1024 * 1024  # below this Python + numpy cannot work: cgroup only
CGROUP_LIMIT_FILES = ("/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes")
# Both hold a line "oom_kill <n>" (cgroup v2 and v1 with Linux >= 4.13).
CGROUP_OOM_FILES = ("/sys/fs/cgroup/memory.events", "/sys/fs/cgroup/memory/memory.oom_control")


def memory_limit_from(argv):
    """The container's memory limit in bytes: `--memory-limit=N`, else the cgroup's, else None."""
    for arg in argv:
        if arg.startswith("--memory-limit="):
            try:
                value = int(arg.split("=", 1)[1])
                return value if value > 0 else None
            except ValueError:
                return None
    for path in CGROUP_LIMIT_FILES:
        try:
            with open(path) as handle:
                text = handle.read().strip()
        except OSError:
            continue
        if text.isdigit() and int(text) < (1 << 60):  # "max" / 2^63-ish means no limit
            return int(text)
    return None


def data_rlimit_for(limit):
    """The RLIMIT_DATA for a container limit, or None when it would be too small to be useful."""
    if limit is None:
        return None
    value = limit - MEMORY_MARGIN_BASE - limit // MEMORY_MARGIN_FRACTION
    return value if value >= MIN_DATA_RLIMIT else None


def apply_memory_limit(limit):
    """Caps this process (and the subprocesses it starts) below the cgroup limit; returns the
    cap in bytes or None. Soft and hard alike, so user code cannot lift it."""
    value = data_rlimit_for(limit)
    if value is None:
        return None
    try:
        _soft, hard = resource.getrlimit(resource.RLIMIT_DATA)
        if hard != resource.RLIM_INFINITY:
            value = min(value, hard)
        resource.setrlimit(resource.RLIMIT_DATA, (value, value))
        return value
    except (OSError, ValueError):
        return None


def oom_kills():
    """The container cgroup's count of OOM kills so far, or None when it cannot be read."""
    for path in CGROUP_OOM_FILES:
        try:
            with open(path) as handle:
                for line in handle:
                    name, _, count = line.partition(" ")
                    if name == "oom_kill":
                        return int(count)
        except (OSError, ValueError):
            continue
    return None


def format_size(size):
    gib = size / (1024 ** 3)
    return f"{gib:.2f}".rstrip("0").rstrip(".") + " GiB"


# --- control: answered by the reader thread, even while a cell runs --------------------------
CONTROL_TYPES = ("interrupt", "reap-strays", "terminate")
# Rounds of killing when processes keep forking (a fork bomb refills the group as we go).
REAP_ROUNDS = 50


def own_group_members():
    """Live processes in this worker's process group other than itself (subprocesses, fork
    bombs), as (pid, start time) pairs: the pair names one process even if its pid is reused.
    Zombies are skipped: they hold no resources but a pid, and are collected below."""
    me, group = os.getpid(), os.getpgid(0)
    members = []
    for name in os.listdir("/proc"):
        if not name.isdigit() or int(name) == me:
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as stat:
                fields = stat.read().rsplit(b")", 1)[1].split()
            # After the name: fields[0] is the state, fields[2] the process group, fields[19]
            # the start time (fields 3, 5 and 22 of proc(5)).
            if fields[0] != b"Z" and int(fields[2]) == group:
                members.append((int(name), int(fields[19])))
        except (OSError, IndexError, ValueError):
            pass
    return members


def collect_zombies():
    """Waits for this worker's finished children, so killed ones do not linger as zombies."""
    while True:
        try:
            pid, _status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


def reap_strays():
    """Kills every other process in the worker's group; returns how many processes it killed.
    Each is counted once: SIGKILL takes effect when the kernel next runs the process, so on a
    busy machine one may still be alive (not yet a zombie) when the next round looks, and gets
    the signal again."""
    killed = set()
    for _ in range(REAP_ROUNDS):
        members = own_group_members()
        if not members:
            break
        for pid, started in members:
            try:
                os.kill(pid, signal.SIGKILL)
                killed.add((pid, started))
            except OSError:
                pass
        time.sleep(0.01)
        collect_zombies()
    collect_zombies()
    return len(killed)


def control(worker, channel, rid, kind):
    """Handles a control request on the reader thread. No user code runs here."""
    if kind == "interrupt":
        delivered = worker.running
        if delivered:
            os.kill(os.getpid(), signal.SIGINT)  # a real signal: it also breaks time.sleep()
        channel.send({"id": rid, "type": "interrupt-ack", "delivered": delivered})
    elif kind == "reap-strays":
        channel.send({"id": rid, "type": "strays-reaped", "count": reap_strays()})
    else:  # terminate: code that ignores SIGINT still cannot ignore this
        reap_strays()
        channel.send({"id": rid, "type": "terminating"})
        os.kill(os.getpid(), signal.SIGKILL)


def control_request(raw):
    """(id, type) when `raw` is a control request, else None. Cheap for ordinary requests."""
    if raw is TOO_LONG or not any(kind.encode() in raw for kind in CONTROL_TYPES):
        return None
    try:
        req = json.loads(raw)
    except ValueError:
        return None
    if not isinstance(req, dict) or req.get("type") not in CONTROL_TYPES:
        return None
    rid = req.get("id")
    return (rid if isinstance(rid, int) and not isinstance(rid, bool) else None, req["type"])


def read_requests(channel, worker, requests):
    """Reader thread: control requests are handled at once, everything else is queued."""
    try:
        while True:
            raw = channel.read()
            if raw is None:
                break
            found = control_request(raw)
            if found is not None:
                control(worker, channel, *found)
            else:
                requests.put(raw)
    finally:
        requests.put(None)


def prepare_environment(workspace):
    for sub in ("uploads", "outputs", "downloads"):
        os.makedirs(os.path.join(workspace, sub), exist_ok=True)
    os.chdir(workspace)
    os.environ["MPLBACKEND"] = "Agg"  # headless; figures become PNGs in outputs/
    rc = os.path.join(HERE, "matplotlibrc")
    if os.path.isfile(rc):
        os.environ.setdefault("MATPLOTLIBRC", rc)
    seed_matplotlib_cache()
    # User modules saved in the workspace are importable; appended, so a stray `email.py`
    # cannot shadow the standard library. The worker's own directory is not on the path.
    sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != HERE] + [workspace]
    sys.argv = [""]


def seed_matplotlib_cache():
    """MPLCONFIGDIR is an empty tmpfs in each container; copying the font list built into the
    image saves matplotlib a rescan of the CJK fonts on every session's first import."""
    target, source = os.environ.get("MPLCONFIGDIR"), os.path.join(HERE, "mpl-cache")
    if not target or not os.path.isdir(source):
        return
    try:
        os.makedirs(target, exist_ok=True)
        for name in os.listdir(source):
            if name.startswith("fontlist") and not os.path.exists(os.path.join(target, name)):
                with open(os.path.join(source, name), "rb") as src, open(os.path.join(target, name), "wb") as dst:
                    dst.write(src.read())
    except OSError:
        pass  # matplotlib rebuilds the cache itself, only slower


def ready_message(memory_rlimit=None):
    import importlib.util

    modules = {}
    for name in EXPECTED_MODULES:
        try:
            modules[name] = importlib.util.find_spec(name) is not None
        except (ImportError, ValueError):
            modules[name] = False
    return {"type": "ready", "protocol": PROTOCOL, "pid": os.getpid(),
            "python": platform.python_version(), "modules": modules,
            "memory_rlimit": memory_rlimit, "oom_kills": oom_kills()}


def main():
    channel = Channel()
    try:
        memory_limit = memory_limit_from(sys.argv[1:])
        memory_rlimit = apply_memory_limit(memory_limit)
        workspace = os.path.abspath(os.environ.get("AIVORY_WORKSPACE") or "/workspace")
        prepare_environment(workspace)
        worker = Worker(channel, workspace)
        worker.memory_limit, worker.memory_rlimit = memory_limit, memory_rlimit
        signal.signal(signal.SIGINT, worker.on_sigint)
        worker.figures.install_import_hook()
        sys.stdout, sys.stderr = sys.__stdout__, sys.__stderr__
        try:
            os.setpgid(0, 0)  # our own process group: strays are found (and reaped) by group
        except OSError:
            pass
        requests = queue.Queue()
        threading.Thread(target=read_requests, args=(channel, worker, requests), daemon=True).start()
        channel.send(ready_message(memory_rlimit))
        while True:
            try:
                raw = requests.get()
                if raw is None or not worker.handle(raw):
                    break
            except KeyboardInterrupt:
                # Only a second SIGINT racing the end of a cell gets here: keep serving.
                worker.running = False
        worker.shutdown()
    except BrokenPipeError:
        os._exit(0)  # the sidecar went away
    except BaseException:
        os.write(channel.diag, ("aivory worker: fatal error\n" + traceback.format_exc()).encode("utf-8", "replace"))
        os._exit(70)


if __name__ == "__main__":
    main()
