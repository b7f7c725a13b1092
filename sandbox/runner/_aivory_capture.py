"""Bounded capture of a cell's output, for the Aivory worker (sandbox/runner/worker.py).

A cell may print gigabytes (`while True: print(...)`). We keep only the first half and the last
half of the byte budget of each stream and count what fell in between, so memory stays bounded
and the model still sees how the output began and how it ended.
"""

import io
import os
import threading

MARKER = "\n[… {} bytes of output omitted …]\n"


class CapBuffer:
    """The head and tail of one byte stream, plus the total number of bytes seen."""

    def __init__(self, limit):
        self.head_limit = limit // 2
        self.tail_limit = limit - self.head_limit
        self.head = bytearray()
        self.tail = bytearray()
        self.total = 0

    def feed(self, data):
        n = len(data)
        if not n:
            return
        room = self.head_limit - len(self.head)
        if room > 0:
            self.head += data[:room]
            data = data[room:]
        if data and self.tail_limit:
            if len(data) >= self.tail_limit:
                self.tail[:] = data[-self.tail_limit:]
            else:
                self.tail += data
                # Trim only once the tail is twice its budget: appends stay amortised O(1).
                if len(self.tail) > 2 * self.tail_limit:
                    del self.tail[: len(self.tail) - self.tail_limit]
        # Counted last: an interrupt mid-feed then under-counts instead of inventing a gap.
        self.total += n

    def skip(self, n):
        """Count n bytes that were never read. Only valid once the head is full and when at least
        tail_limit more bytes will be fed: the old tail can no longer be the stream's end."""
        self.total += n
        self.tail.clear()

    def text(self):
        """(decoded text with a marker where bytes were dropped, number of bytes dropped)."""
        tail = self.tail[len(self.tail) - self.tail_limit:] if len(self.tail) > self.tail_limit else self.tail
        omitted = self.total - len(self.head) - len(tail)
        if omitted <= 0:
            return bytes(self.head + tail).decode("utf-8", "replace"), 0
        # Cut on character boundaries so the marker is not surrounded by U+FFFD.
        head, cut_head = _trim_partial_end(bytes(self.head))
        tail, cut_tail = _trim_partial_start(bytes(tail))
        omitted += cut_head + cut_tail
        text = head.decode("utf-8", "replace") + MARKER.format(omitted) + tail.decode("utf-8", "replace")
        return text, omitted


def _trim_partial_end(data):
    """Drop a UTF-8 sequence cut off at the end of data."""
    for back in range(1, min(4, len(data)) + 1):
        byte = data[-back]
        if byte & 0xC0 != 0x80:  # not a continuation byte: a lead byte or ASCII
            need = 2 if byte >= 0xC0 else 1
            need = 3 if byte >= 0xE0 else need
            need = 4 if byte >= 0xF0 else need
            if need > back:
                return data[:-back], back
            break
    return data, 0


def _trim_partial_start(data):
    """Drop continuation bytes whose lead byte was cut off at the start of data."""
    n = 0
    while n < min(3, len(data)) and data[n] & 0xC0 == 0x80:
        n += 1
    return data[n:], n


def feed_from_fd(cap, fd):
    """Feed the head and tail of a file into cap without reading the middle of it."""
    size = os.fstat(fd).st_size
    first = min(size, max(0, cap.head_limit - len(cap.head)))
    if first:
        cap.feed(_pread(fd, first, 0))
    rest = size - first
    start = first
    if rest > cap.tail_limit:
        cap.skip(rest - cap.tail_limit)
        start, rest = size - cap.tail_limit, cap.tail_limit
    if rest:
        cap.feed(_pread(fd, rest, start))


def _pread(fd, n, offset):
    chunks = []
    while n > 0:
        chunk = os.pread(fd, min(n, 1 << 20), offset)
        if not chunk:
            break
        chunks.append(chunk)
        n -= len(chunk)
        offset += len(chunk)
    return b"".join(chunks)


class CappedTextWriter(io.TextIOBase):
    """sys.stdout/sys.stderr during a cell: text goes into a CapBuffer, never to a pipe."""

    encoding = "utf-8"
    errors = "backslashreplace"
    line_buffering = False

    def __init__(self, cap, fd, name):
        super().__init__()
        self._cap = cap
        self._fd = fd
        self._lock = threading.Lock()  # user threads may print concurrently
        self.name = name
        self.buffer = _BinaryView(self)

    def write(self, s):
        if not isinstance(s, str):
            raise TypeError(f"write() argument must be str, not {type(s).__name__}")
        # backslashreplace: lone surrogates cannot be encoded as UTF-8 otherwise.
        self.write_bytes(s.encode("utf-8", "backslashreplace"))
        return len(s)

    def write_bytes(self, data):
        with self._lock:
            self._cap.feed(data)
        return len(data)

    def writable(self):
        return True

    def isatty(self):
        return False

    def flush(self):
        pass

    def fileno(self):
        # Code that hands sys.stdout to a subprocess gets fd 1/2, which the worker also captures.
        return self._fd

    def reconfigure(self, **_kwargs):
        pass


class _BinaryView(io.RawIOBase):
    """sys.stdout.buffer: some code writes bytes there."""

    def __init__(self, owner):
        super().__init__()
        self._owner = owner

    def writable(self):
        return True

    def write(self, data):
        return self._owner.write_bytes(bytes(data))

    def fileno(self):
        return self._owner.fileno()
