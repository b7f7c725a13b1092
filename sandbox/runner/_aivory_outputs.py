"""Files a cell produced, for the Aivory worker (sandbox/runner/worker.py).

Two jobs: notice which files under <workspace>/outputs a cell created or changed, and turn
matplotlib figures into PNGs there even when the code never saves them (plt.show() in a
headless sandbox would otherwise show nothing, and models often forget savefig).
"""

import mimetypes
import os
import stat
import sys

MAX_LISTED = 200
# Entries walked for a workspace stamp before giving up (measured 7–10 µs an entry on tmpfs, so
# at most ~50 ms a cell; see workspace_stamp).
STAMP_ENTRY_LIMIT = 5000

# A private table: the module-level mimetypes functions read /etc/mime.types, which differs
# between the image and a developer's machine. Office formats are not in Python's built-ins.
_MIME = mimetypes.MimeTypes()
for _ext, _type in {
    ".docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    ".xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    ".pptx": "application/vnd.openxmlformats-officedocument.presentationml.presentation",
    ".md": "text/markdown",
    ".parquet": "application/vnd.apache.parquet",
    ".webp": "image/webp",
}.items():
    _MIME.add_type(_type, _ext)


def snapshot(workspace, sub="outputs"):
    """{relative path: (size, mtime_ns)} for the regular files under workspace/sub."""
    base = os.path.join(workspace, sub)
    found = {}
    if os.path.islink(base):  # os.walk would follow a top-level symlink anywhere
        return found
    for dirpath, _dirnames, filenames in os.walk(base):  # does not descend into symlinked dirs
        for name in filenames:
            path = os.path.join(dirpath, name)
            try:
                st = os.lstat(path)
            except OSError:
                continue
            if stat.S_ISREG(st.st_mode):
                rel = os.path.relpath(path, workspace).replace(os.sep, "/")
                found[rel] = (st.st_size, st.st_mtime_ns)
    return found


def workspace_stamp(workspace, limit=STAMP_ENTRY_LIMIT):
    """A fingerprint of the whole workspace that changes when any file or folder in it is added,
    removed, renamed, written or has its mode changed: the number of entries, their total size and
    the newest inode change time (ctime, which user code cannot set back). The sidecar saves the
    workspace after a cell only when this changed. None when the walk passes `limit` entries: the
    workspace is then saved after every cell."""
    count, total, newest = 0, 0, 0
    pending = [workspace]
    while pending:
        try:
            iterator = os.scandir(pending.pop())
        except OSError:
            continue
        with iterator:
            for entry in iterator:
                count += 1
                if count > limit:
                    return None
                try:
                    st = entry.stat(follow_symlinks=False)
                except OSError:
                    continue
                total += st.st_size
                newest = max(newest, st.st_ctime_ns)
                if entry.is_dir(follow_symlinks=False):
                    pending.append(entry.path)
    try:
        newest = max(newest, os.lstat(workspace).st_ctime_ns)
    except OSError:
        pass
    return f"{count}:{total}:{newest}"


def changed_files(before, after):
    """New or changed files, sorted by path, at most MAX_LISTED."""
    listed = []
    for rel in sorted(after):
        if before.get(rel) != after[rel]:
            mime = _MIME.guess_type(rel, strict=False)[0] or "application/octet-stream"
            listed.append({"path": rel, "size": after[rel][0], "mime": mime})
            if len(listed) >= MAX_LISTED:
                break
    return listed


class Figures:
    """Saves open pyplot figures as outputs/figure-<n>.png (n counts up per worker life), except
    those the code already saved to a file with savefig: those are only closed (saving them again
    would attach the same plot twice, as figure-<n>.png and under the code's own name)."""

    def __init__(self, outputs_dir):
        self.outputs_dir = outputs_dir
        self.counter = 0
        self.errors = []  # messages for the current cell's stderr

    def install_import_hook(self):
        """Patch pyplot.show the moment user code imports pyplot; never import it ourselves."""
        sys.meta_path.insert(0, _PyplotFinder(self.patch))
        pyplot = sys.modules.get("matplotlib.pyplot")
        if pyplot is not None:
            self.patch(pyplot)

    def patch(self, pyplot):
        if getattr(pyplot.show, "_aivory", False):
            return
        original = pyplot.show

        def show(*_args, **_kwargs):
            """Aivory: saves every open figure into outputs/ as PNG and closes it."""
            self.save_open()

        show._aivory = True
        show.__wrapped__ = original
        pyplot.show = show
        _mark_savefig(getattr(pyplot, "Figure", None))

    def save_open(self):
        """Save and close every open figure; returns the paths written."""
        pyplot = sys.modules.get("matplotlib.pyplot")
        if pyplot is None:
            return []
        self.patch(pyplot)  # in case pyplot was imported some way the hook missed
        written = []
        for num in list(pyplot.get_fignums()):
            fig = pyplot.figure(num)
            try:
                if not getattr(fig, _SAVED_MARK, False):
                    written.append(self._save(fig))
            except Exception as exc:  # a broken figure must not break the cell's result
                self.errors.append(f"[aivory] could not save figure {num}: {type(exc).__name__}: {exc}")
            finally:
                pyplot.close(fig)
        return written

    def _save(self, fig):
        os.makedirs(self.outputs_dir, exist_ok=True)
        while True:  # O_EXCL: never overwrite a file the user (or an earlier worker) wrote
            self.counter += 1
            path = os.path.join(self.outputs_dir, f"figure-{self.counter}.png")
            try:
                fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
                break
            except FileExistsError:
                continue
        try:
            with os.fdopen(fd, "wb") as f:
                fig.savefig(f, format="png", dpi=100, bbox_inches="tight")
        except BaseException:
            os.unlink(path)
            raise
        return path


_SAVED_MARK = "_aivory_saved_to_file"


def _names_a_file(target):
    """Whether a savefig target is a file on disk: a path, or an open file that has one (a
    BytesIO, a socket or a bare descriptor is not: the figure is still saved as figure-<n>.png)."""
    if isinstance(target, (str, bytes, os.PathLike)):
        return True
    name = getattr(target, "name", None)
    return isinstance(name, (str, bytes, os.PathLike))


def _mark_savefig(figure_class):
    """Wrap Figure.savefig (pyplot.savefig calls it too) so a figure saved to a file is marked,
    and save_open leaves it out."""
    if figure_class is None or getattr(figure_class.savefig, "_aivory", False):
        return
    original = figure_class.savefig

    def savefig(self, fname, *args, **kwargs):
        result = original(self, fname, *args, **kwargs)
        if _names_a_file(fname):
            try:
                setattr(self, _SAVED_MARK, True)
            except Exception:  # a figure that takes no attributes is simply saved again
                pass
        return result

    savefig._aivory = True
    savefig.__wrapped__ = original
    savefig.__doc__ = original.__doc__
    figure_class.savefig = savefig


class _PyplotFinder:
    """A meta path finder that lets the real finders locate matplotlib.pyplot, then wraps its
    loader so `on_load(module)` runs right after the module body executes."""

    def __init__(self, on_load):
        self._on_load = on_load

    def find_spec(self, fullname, path, target=None):
        if fullname != "matplotlib.pyplot":
            return None
        for finder in sys.meta_path:
            if finder is self or not hasattr(finder, "find_spec"):
                continue
            spec = finder.find_spec(fullname, path, target)
            if spec is not None:
                if spec.loader is not None and hasattr(spec.loader, "exec_module"):
                    spec.loader = _PatchingLoader(spec.loader, self._on_load)
                return spec
        return None

    def invalidate_caches(self):
        pass


class _PatchingLoader:
    def __init__(self, inner, on_load):
        self._inner = inner
        self._on_load = on_load

    def create_module(self, spec):
        return self._inner.create_module(spec)

    def exec_module(self, module):
        self._inner.exec_module(module)
        self._on_load(module)

    def __getattr__(self, name):  # get_source, get_filename, … for inspect and friends
        return getattr(self._inner, name)
