#!/usr/bin/env bash
# The house's figures (issue 45), one line each with its limit beside it:
#
# - the longest source file in crates/ (tests, examples and benches aside: paths with
#   /tests/, /examples/ or /benches/, and files named tests.rs); limit 900 lines;
# - the longest function of the game crates' rules (every `fn` with a body in
#   crates/games/*/src, tests aside, brace-matched after comments, strings and char literals
#   are blanked); limit 120 lines;
# - module cycles: the `use crate::x` / `super::x` edges between the top-level modules of each
#   crate, and the groups of modules that reach each other through them (what `cargo modules
#   dependencies --acyclic` would refuse, at the top level); limit 0;
# - duplicate blocks, from the `duplicates` command where it is installed.
#
# Files are discovered, never listed: the game crates change shape, this script need not.
# It reports and never judges: a figure over its limit is printed as such and the script still
# exits 0. Only an error of the script itself (a Python exception, a missing crates/) fails it.
# Fast by design (a few seconds; CI calls it before the build): no compiler, no cargo.
set -euo pipefail
cd "$(dirname "$0")/.."

python3 - <<'PY'
import os
import re
import sys

CRATES = "crates"
FILE_LIMIT = 900
FN_LIMIT = 120


def is_test_path(path):
    p = "/" + path.replace(os.sep, "/")
    name = os.path.basename(path)
    return (
        "/tests/" in p
        or "/examples/" in p
        or "/benches/" in p
        or name == "tests.rs"
    )


def rust_files(root):
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if d != "target" and not d.startswith("."))
        for f in sorted(filenames):
            if f.endswith(".rs"):
                yield os.path.join(dirpath, f)


def blank(src):
    """The source with comments, strings and char literals turned to spaces (newlines kept), so
    braces and paths can be read off it without a parser."""
    out = list(src)
    n = len(src)
    i = 0

    def wipe(a, b):
        for k in range(a, min(b, n)):
            if out[k] != "\n":
                out[k] = " "

    while i < n:
        c = src[i]
        if c == "/" and src.startswith("//", i):
            j = src.find("\n", i)
            j = n if j < 0 else j
            wipe(i, j)
            i = j
        elif c == "/" and src.startswith("/*", i):
            depth, j = 1, i + 2
            while j < n and depth:
                if src.startswith("/*", j):
                    depth, j = depth + 1, j + 2
                elif src.startswith("*/", j):
                    depth, j = depth - 1, j + 2
                else:
                    j += 1
            wipe(i, j)
            i = j
        elif c in "rb" and (i == 0 or not (src[i - 1].isalnum() or src[i - 1] == "_")):
            # Raw strings (r"..", r#".."#, br#".."#) and byte strings (b"..").
            m = re.compile(r'b?r(#*)"').match(src, i)
            if m:
                end = src.find('"' + m.group(1), m.end())
                end = n if end < 0 else end + 1 + len(m.group(1))
                wipe(i, end)
                i = end
            elif src.startswith('b"', i) or src.startswith("b'", i):
                i += 1  # the literal itself is read on the next turn
            else:
                i += 1
        elif c == '"':
            j = i + 1
            while j < n and src[j] != '"':
                j += 2 if src[j] == "\\" else 1
            wipe(i, j + 1)
            i = j + 1
        elif c == "'":
            # A char literal ('x', '\n', '\u{7b}', '{') or a lifetime / label ('a, 'outer:).
            if i + 1 < n and src[i + 1] == "\\":
                j = src.find("'", i + 2)
                j = n if j < 0 else j
                wipe(i, j + 1)
                i = j + 1
            elif i + 2 < n and src[i + 2] == "'":
                wipe(i, i + 3)
                i += 3
            else:
                i += 1
        else:
            i += 1
    return "".join(out)


def match_brace(code, open_at):
    depth = 0
    for k in range(open_at, len(code)):
        ch = code[k]
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth == 0:
                return k
    return len(code) - 1


CFG_TEST = re.compile(r"#\s*\[\s*cfg\s*\(\s*test\s*\)\s*\]")
ATTR = re.compile(r"\s*#\s*!?\s*\[")


def test_ranges(code):
    """Character ranges of the items under `#[cfg(test)]` (test modules and test-only fns)."""
    ranges = []
    for m in CFG_TEST.finditer(code):
        k = m.end()
        # Skip further attributes on the same item.
        while True:
            a = ATTR.match(code, k)
            if not a:
                break
            depth, k = 0, a.end() - 1
            while k < len(code):
                if code[k] == "[":
                    depth += 1
                elif code[k] == "]":
                    depth -= 1
                    if depth == 0:
                        k += 1
                        break
                k += 1
        semi = code.find(";", k)
        brace = code.find("{", k)
        if brace >= 0 and (semi < 0 or brace < semi):
            ranges.append((m.start(), match_brace(code, brace)))
    return ranges


def inside(pos, ranges):
    return any(a <= pos <= b for a, b in ranges)


FN = re.compile(r"\bfn\s+([A-Za-z_][A-Za-z0-9_]*)")


def functions(code):
    """(name, first line, line count) of every fn with a body."""
    tests = test_ranges(code)
    for m in FN.finditer(code):
        if inside(m.start(), tests):
            continue
        depth = 0
        k = m.end()
        while k < len(code):
            ch = code[k]
            if ch in "([":
                depth += 1
            elif ch in ")]":
                depth -= 1
            elif depth == 0 and ch in "{;":
                break
            k += 1
        if k >= len(code) or code[k] == ";":
            continue  # a declaration without a body (trait methods, extern fns)
        end = match_brace(code, k)
        first = code.count("\n", 0, m.start()) + 1
        last = code.count("\n", 0, end) + 1
        yield m.group(1), first, last - first + 1


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def line_count(text):
    return text.count("\n") + (0 if text.endswith("\n") or not text else 1)


# -- the longest source file -------------------------------------------------------------
if not os.path.isdir(CRATES):
    sys.exit("house.sh: no crates/ directory here")
sources = [p for p in rust_files(CRATES) if not is_test_path(p)]
lengths = sorted(((line_count(read(p)), p) for p in sources), reverse=True)
over = [p for n, p in lengths if n > FILE_LIMIT]
n, p = lengths[0]
print(
    f"longest file:      {n} lines  {p}  (limit {FILE_LIMIT}; {len(over)} over, "
    f"{len(sources)} files)"
)
for n2, p2 in lengths[1 : len(over)]:
    print(f"                   {n2} lines  {p2}")

# -- the longest rules function ------------------------------------------------------------
# The rules are a game crate's sources but for the parts that are not: its narration and
# terminal faces (`text`), its test position notation (`setup`) and its players (`bots`),
# whether a file or a folder of that name. Their functions are shown on a line of their own.
NOT_RULES = {"text", "setup", "bots"}
games_dir = os.path.join(CRATES, "games")
rules_fns, other_fns = [], []
for game in sorted(os.listdir(games_dir)):
    src = os.path.join(games_dir, game, "src")
    if not os.path.isdir(src):
        continue
    for path in rust_files(src):
        if is_test_path(path) or path.endswith("_test.rs"):
            continue
        parts = os.path.relpath(path, src)[: -len(".rs")].split(os.sep)
        into = other_fns if NOT_RULES & set(parts) else rules_fns
        for name, first, count in functions(blank(read(path))):
            into.append((count, name, path, first))
for fns in (rules_fns, other_fns):
    fns.sort(key=lambda t: (-t[0], t[2], t[3]))
over = [f for f in rules_fns if f[0] > FN_LIMIT]
count, name, path, first = rules_fns[0] if rules_fns else (0, "(none)", games_dir, 0)
print(
    f"longest rules fn:  {count} lines  {name}  {path}:{first}  (limit {FN_LIMIT}; "
    f"{len(over)} over, {len(rules_fns)} fns)"
)
for count, name, path, first in over[1:]:
    print(f"                   {count} lines  {name}  {path}:{first}")
count, name, path, first = other_fns[0] if other_fns else (0, "(none)", games_dir, 0)
over = [f for f in other_fns if f[0] > FN_LIMIT]
print(
    f"longest game fn outside the rules (text, setup, bots):  {count} lines  {name}  "
    f"{path}:{first}  ({len(over)} over {FN_LIMIT}, {len(other_fns)} fns)"
)

# -- module cycles ---------------------------------------------------------------------------
PATH = re.compile(r"(?<![A-Za-z0-9_])\$?(crate|super|self)((?:\s*::\s*(?:super|self)\b)*)\s*::\s*(\{|[A-Za-z_][A-Za-z0-9_]*)")
ROOT_USE = re.compile(
    r"^\s*(?:pub(?:\s*\([^)]*\))?\s+)?use\s+(?:crate::|self::)?([A-Za-z_][A-Za-z0-9_]*)\s*::\s*(\{[^;]*\}|[A-Za-z_][A-Za-z0-9_]*(?:\s+as\s+[A-Za-z_][A-Za-z0-9_]*)?)\s*;",
    re.M,
)


def group_heads(code, open_at):
    """The first path segment of each element of a `{a, b::c, d as e}` use group."""
    close = match_brace(code, open_at)
    body, depth, parts, cur = code[open_at + 1 : close], 0, [], ""
    for ch in body:
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append(cur)
            cur = ""
        else:
            cur += ch
    parts.append(cur)
    heads = []
    for part in parts:
        m = re.match(r"\s*([A-Za-z_][A-Za-z0-9_]*)", part)
        if m:
            heads.append(m.group(1))
    return heads


def module_path(src, path):
    rel = os.path.relpath(path, src).replace(os.sep, "/")[: -len(".rs")]
    parts = rel.split("/")
    if parts[-1] == "mod" or (len(parts) == 1 and parts[0] in ("lib", "main")):
        parts = parts[:-1]
    return parts


def crate_dirs():
    for dirpath, dirnames, filenames in os.walk(CRATES):
        dirnames[:] = sorted(d for d in dirnames if d not in ("target", "src", "tests", "examples", "benches"))
        if "Cargo.toml" in filenames and os.path.isdir(os.path.join(dirpath, "src")):
            yield dirpath


def cycles_of(edges, nodes):
    """Every elementary cycle of the module graph, each once, starting at its least module."""
    out = []

    def walk(start, v, path, seen):
        for w in sorted(edges.get(v, ())):
            if w == start:
                out.append(path + [start])
            elif w > start and w not in seen:
                walk(start, w, path + [w], seen | {w})

    for v in sorted(nodes):
        walk(v, v, [v], {v})
    return out


found = []
for crate in crate_dirs():
    src = os.path.join(crate, "src")
    root_file = next((os.path.join(src, f) for f in ("lib.rs", "main.rs") if os.path.exists(os.path.join(src, f))), None)
    if root_file is None:
        continue
    files = [p for p in rust_files(src) if not is_test_path(os.path.relpath(p, crate)) and not p.endswith("_test.rs")]
    tops = {module_path(src, p)[0] for p in files if module_path(src, p)}
    # Names the crate root re-exports from a module (`pub use lobby::Lobby;`) lead to it.
    root_code = blank(read(root_file))
    reexport = {}
    for m in ROOT_USE.finditer(root_code):
        module, rest = m.group(1), m.group(2)
        if module not in tops:
            continue
        if rest.startswith("{"):
            names = [re.split(r"\s+as\s+", x.strip())[-1] for x in rest[1:-1].split(",") if x.strip()]
        else:
            names = [re.split(r"\s+as\s+", rest.strip())[-1]]
        for name in names:
            if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name) and name != "self":
                reexport[name] = module
    edges = {}
    for path in files:
        here = module_path(src, path)
        if not here:
            continue  # the crate root is not one of the modules
        code = blank(read(path))
        tests = test_ranges(code)
        for m in PATH.finditer(code):
            if inside(m.start(), tests):
                continue
            base = {"crate": [], "super": here[:-1], "self": list(here)}[m.group(1)]
            for _ in re.findall(r"super", m.group(2)):
                base = base[:-1]
            heads = group_heads(code, m.end() - 1) if m.group(3) == "{" else [m.group(3)]
            for head in heads:
                if base:
                    target = base[0]
                elif head in tops:
                    target = head
                elif head in reexport:
                    target = reexport[head]
                else:
                    continue  # an item of the crate root itself
                if target != here[0]:
                    edges.setdefault(here[0], set()).add(target)
    crate_name = os.path.relpath(crate, CRATES).replace(os.sep, "/")
    for cycle in cycles_of(edges, tops):
        found.append((crate_name, cycle))

def show(cycle):
    if len(cycle) == 3:
        return f"{cycle[0]} <-> {cycle[1]}"
    return " -> ".join(cycle)


if found:
    by_crate = {}
    for c, cycle in found:
        by_crate.setdefault(c, []).append(show(cycle))
    shown = "; ".join(f"{c}: {', '.join(cs)}" for c, cs in by_crate.items())
    print(f"module cycles:     {len(found)}  ({shown})  (limit 0)")
else:
    print("module cycles:     0  (limit 0)")
PY

# Duplicate blocks: a tool of this machine, not of the repository; CI may not have it.
if command -v duplicates >/dev/null 2>&1; then
    # It always exits 0; its first line counts the pairs, the next rows name the largest.
    dup=$(duplicates --repo crates --seconds 15 --most 3 2>&1 || true)
    first=$(printf '%s\n' "$dup" | head -n 1)
    printf 'duplicate blocks:  %s  (no limit: places to look)\n' "$first"
    printf '%s\n' "$dup" | sed -n '2,4p' | sed 's/^/                   /'
else
    echo "duplicates: not installed"
fi
