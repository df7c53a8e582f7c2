#!/usr/bin/env python3
"""The longest product functions and files of pbench, against the house's bounds.

Usage: bench/code_size.py [--top N] [--max-function 120] [--max-file 700] [ROOT]

Product code is orchestrator/ and workers/ (*.cpp, *.hpp); tests, benchmarks and fuzz targets
are not. A function is a brace block at namespace level whose header closes with ')' (and
qualifiers) before its '{': its length counts the lines from the header's first line to the
closing brace. Lambdas and classes are counted inside the function or file that holds them.
Prints the N longest of each and exits 1 when one is over its bound (issue 53, item 2).
"""
import argparse
import pathlib
import re
import sys

PRODUCT = ("orchestrator", "workers")
FUNCTION_TAIL = re.compile(
    r"\)\s*(const|noexcept|override|final|->\s*[\w:<>,\s&*]+|\s)*$", re.S)


def strip_code(text):
    """The text with comments, string and character literals blanked (newlines kept)."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif text.startswith('R"', i):
            m = re.match(r'R"([^(\s]*)\(', text[i:])
            end = text.find(")" + m.group(1) + '"', i) if m else -1
            j = n if end < 0 else end + len(m.group(1)) + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            out.append(c + re.sub(r"[^\n]", " ", text[i + 1:j]) + c)
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def functions(path):
    """(name, first line, lines) of each namespace-level function defined in `path`."""
    code = strip_code(path.read_text(encoding="utf-8", errors="replace"))
    found, depth, scopes, start = [], 0, [], 0
    for i, c in enumerate(code):
        if c == "{":
            header = code[start:i]
            is_function = (not scopes or scopes[-1] == "namespace") and \
                FUNCTION_TAIL.search(header.rstrip()) is not None and \
                not re.search(r"\b(namespace|class|struct|enum|union)\b[^()]*$", header)
            kind = "function" if is_function else (
                "namespace" if re.search(r"\bnamespace\b[^;{}]*$", header) else "other")
            if kind == "function":
                first = code.count("\n", 0, start + len(header) - len(header.lstrip())) + 1
                name = re.findall(r"([\w:~]+)\s*\(", header)
                scopes.append(("function", name[0] if name else "?", first))
            else:
                scopes.append(kind)
            depth += 1
            start = i + 1
        elif c == "}":
            depth -= 1
            scope = scopes.pop() if scopes else "other"
            if isinstance(scope, tuple):
                last = code.count("\n", 0, i) + 1
                found.append((scope[1], scope[2], last - scope[2] + 1))
            start = i + 1
        elif c == ";" and (not scopes or scopes[-1] == "namespace"):
            start = i + 1
    return found


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("root", nargs="?", default=pathlib.Path(__file__).resolve().parent.parent)
    parser.add_argument("--top", type=int, default=5)
    parser.add_argument("--max-function", type=int, default=120)
    parser.add_argument("--max-file", type=int, default=700)
    args = parser.parse_args()
    root = pathlib.Path(args.root)
    files, funcs = [], []
    for folder in PRODUCT:
        for path in sorted((root / folder).rglob("*")):
            if path.suffix not in (".cpp", ".hpp"):
                continue
            rel = path.relative_to(root)
            files.append((len(path.read_text(errors="replace").splitlines()), str(rel)))
            funcs += [(n, f"{rel}:{line}", name) for name, line, n in functions(path)]
    files.sort(reverse=True)
    funcs.sort(reverse=True)
    print(f"product files: {len(files)}, functions: {len(funcs)}")
    print(f"longest functions (bound {args.max_function} lines):")
    for n, where, name in funcs[:args.top]:
        print(f"  {n:5d}  {name}  {where}")
    print(f"longest files (bound {args.max_file} lines):")
    for n, rel in files[:args.top]:
        print(f"  {n:5d}  {rel}")
    over_f = [f for f in funcs if f[0] > args.max_function]
    over_file = [f for f in files if f[0] > args.max_file]
    print(f"over the bounds: {len(over_f)} functions, {len(over_file)} files")
    for n, where, name in over_f:
        print(f"  function {name} {where}: {n} lines")
    for n, rel in over_file:
        print(f"  file {rel}: {n} lines")
    return 1 if over_f or over_file else 0


if __name__ == "__main__":
    sys.exit(main())
