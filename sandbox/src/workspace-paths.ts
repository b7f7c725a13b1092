/**
 * The in-container probe behind GET /sessions/{id}/files: resolves a workspace-relative path with
 * realpath (so a symlink cannot point outside /workspace), then lists the directory or reports
 * the file. Runs as the sandbox user through `python3 -c`; prints JSON after a marker line.
 */

export const PATH_SCRIPT_MARKER = '@@aivory-path@@';

/** Longest directory listing returned; a workspace with more entries is cut at this many. */
export const MAX_LISTED_ENTRIES = 2000;

export function listPathScript(): string {
  return [
    'import json, os, sys',
    "root = os.path.realpath('/workspace')",
    'target = os.path.realpath(os.path.join(root, sys.argv[1]))',
    "out = {'kind': 'missing'}",
    'if target == root or target.startswith(root + os.sep):',
    '    if os.path.isdir(target):',
    '        entries = []',
    '        for name in sorted(os.listdir(target)):',
    '            path = os.path.join(target, name)',
    '            try:',
    '                info = os.lstat(path)',
    '            except OSError:',
    '                continue',
    '            if os.path.islink(path):',
    '                continue',
    "            kind = 'directory' if os.path.isdir(path) else 'file'",
    "            entries.append({'path': os.path.relpath(path, root), 'type': kind, 'size': info.st_size, 'mtime_ms': int(info.st_mtime * 1000)})",
    `            if len(entries) >= ${MAX_LISTED_ENTRIES}:`,
    '                break',
    "        out = {'kind': 'directory', 'entries': entries}",
    '    elif os.path.isfile(target):',
    "        out = {'kind': 'file', 'real': target, 'size': os.path.getsize(target)}",
    `print('${PATH_SCRIPT_MARKER}' + json.dumps(out))`,
  ].join('\n');
}
