#!/usr/bin/env python3
"""The documentation says only what exists (issue 35): README.md and docs/*.md are read and every
problem is named with its file and line.

- A relative link (or image) must name a file that exists, among README.md and docs/ (what is
  installed into share/doc/pbench, so that the links work there too), and an #anchor a heading
  of the Markdown file it points at (GitHub's slugs).
- A `pbench ...` command line, in a shell block or in inline code, must name commands pbench has
  (each command path is asked for its --help) and options that command's --help lists. CLI11
  prints the help before it checks the other options (`pbench sweep x --bogus --help` prints the
  help and exits 0), so the options are compared by name with the help text rather than parsed.
- A worker command (`pbench-io --suite consortium`) must use options the worker's --help lists,
  and `--set WORKER.NAME=VALUE` a parameter the worker has (`--describe-parameters`).
- A path quoted under scripts/, tests/, bench/, orchestrator/, workers/, schema/, jobtemplates/,
  cmake/, fuzz/ or docs/ must exist (a name without its extension counts when a file of that
  name with one does; `*` is a wildcard).
- A line of prose (not a code block, not a table row) is at most 100 columns.
- A code block right after `<!-- copy of PATH -->` must be the file PATH of the source tree as
  it is, and one after `<!-- excerpt of PATH -->` a run of its lines as they are: a file the
  tests run and the guide shows exists once (share/pbench/prometheus/pbench-nightly.sh).

An example wrong on purpose carries `<!-- docs-check: wrong on purpose -->` at the end of its line
(or alone on the line before a code block's line). Usage:
  check_docs.py --root SOURCE_DIR --pbench PATH [--worker PATH]... [FILE.md ...]
"""
import argparse
import glob
import json
import os
import re
import shlex
import subprocess
import sys

WIDTH = 100
MARKER = "<!-- docs-check: wrong on purpose -->"
SHELL_INFO = {"sh", "bash", "shell", "console", "shell-session"}
WORKERS = ("logp", "comm", "io", "bcast", "links")
PREFIXES = ("sudo", "exec", "time")
PATH_ROOTS = ("scripts", "tests", "bench", "orchestrator", "workers", "schema", "jobtemplates",
              "cmake", "fuzz", "docs")
PATH_RE = re.compile(r"(?<![\w/.$-])((?:%s)/[\w./*+-]*)" % "|".join(PATH_ROOTS))

problems = []


def run_program(argv):
    """(exit status, stdout, stderr) of a program given 60 s; a program that cannot start: 127."""
    try:
        run = subprocess.run(argv, capture_output=True, text=True, timeout=60,
                             env=dict(os.environ, COLUMNS="200"))
        return run.returncode, run.stdout, run.stderr
    except (OSError, subprocess.TimeoutExpired) as error:
        return 127, "", str(error)


ROOT = "."
counts = {"links": 0, "commands": 0, "paths": 0, "copies": 0}


def problem(path, line, text):
    problems.append(f"{os.path.relpath(path, ROOT)}:{line}: {text}")


# ---------------------------------------------------------------- Markdown structure


def slug(heading):
    """GitHub's anchor of a heading: markup dropped, lowercase, punctuation removed, spaces as -."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link's text
    text = re.sub(r"<[^>]+>", "", text).strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


class Doc:
    """A Markdown file split into fenced blocks and prose, with each line's number."""

    def __init__(self, path):
        self.path = path
        self.lines = open(path, encoding="utf-8").read().split("\n")
        self.fence_of = {}  # line index -> the info string of the block it is inside
        self.anchors = set()
        fence = None
        info = ""
        seen = {}
        for i, line in enumerate(self.lines):
            stripped = line.lstrip()
            opener = re.match(r"(`{3,}|~{3,})\s*([\w+-]*)", stripped)
            if fence is None and opener and len(line) - len(stripped) <= 3:
                fence, info = opener.group(1), opener.group(2).lower()
                self.fence_of[i] = None  # the fence line itself
                continue
            if fence is not None:
                closer = stripped.strip()
                if closer.startswith(fence) and closer == fence[0] * len(closer):
                    fence = None
                    self.fence_of[i] = None
                else:
                    self.fence_of[i] = info
                continue
            heading = re.match(r"#{1,6}\s+(.*?)\s*#*\s*$", line)
            if heading:
                base = slug(heading.group(1))
                n = seen.get(base, 0)
                seen[base] = n + 1
                self.anchors.add(base if n == 0 else f"{base}-{n}")

    def prose(self):
        """(index, line) of every line outside fenced blocks."""
        return [(i, l) for i, l in enumerate(self.lines) if i not in self.fence_of]

    def paragraphs(self):
        """Runs of prose lines between blank lines, fences and headings: [(first index, text)]."""
        runs, current, first = [], [], None
        for i, line in enumerate(self.lines):
            if i in self.fence_of or not line.strip() or line.startswith("#"):
                if current:
                    runs.append((first, "\n".join(current)))
                current, first = [], None
                continue
            if first is None:
                first = i
            current.append(line)
        if current:
            runs.append((first, "\n".join(current)))
        return runs

    def on_purpose(self, i):
        return MARKER in self.lines[i] or (i > 0 and self.lines[i - 1].strip() == MARKER)


def code_spans(text):
    """(offset, content) of every inline code span of a paragraph (newlines read as spaces)."""
    spans = []
    for m in re.finditer(r"(`+)(.+?)(?<!`)\1(?!`)", text, re.S):
        spans.append((m.start(), m.group(2).replace("\n", " ").strip()))
    return spans


def strip_code(text):
    return re.sub(r"(`+)(.+?)(?<!`)\1(?!`)", lambda m: " " * len(m.group(0)), text, flags=re.S)


# ---------------------------------------------------------------- links


INLINE_LINK = re.compile(r"\]\(\s*<?([^)\s>]*)>?(?:\s+\"[^\"]*\")?\)")
REFERENCE_LINK = re.compile(r"^\s*\[[^\]]+\]:\s*(\S+)", re.M)


def check_links(doc, docs_by_path, root):
    for first, text in doc.paragraphs():
        bare = strip_code(text)
        targets = [(m.start(), m.group(1)) for m in INLINE_LINK.finditer(bare)]
        targets += [(m.start(), m.group(1)) for m in REFERENCE_LINK.finditer(bare)]
        for offset, target in targets:
            line = first + text.count("\n", 0, offset) + 1
            if not target or re.match(r"[a-z][a-z0-9+.-]*:", target):  # http:, mailto:, ...
                continue
            counts["links"] += 1
            file_part, _, anchor = target.partition("#")
            dest = doc.path
            if file_part:
                dest = os.path.normpath(os.path.join(os.path.dirname(doc.path), file_part))
            shown = os.path.relpath(dest, ROOT)
            if not os.path.exists(dest):
                problem(doc.path, line, f"link to '{target}': no file {shown}")
                continue
            if dest != os.path.join(root, "README.md") and \
                    not dest.startswith(os.path.join(root, "docs") + os.sep):
                problem(doc.path, line, f"link to '{target}': outside README.md and docs/, the "
                        "files installed into share/doc/pbench, where it would not resolve (quote "
                        "the path as code instead)")
                continue
            if anchor:
                if not dest.endswith(".md"):
                    problem(doc.path, line, f"link to '{target}': an anchor in a file that is not "
                            "Markdown")
                    continue
                target_doc = docs_by_path.get(dest) or Doc(dest)
                docs_by_path[dest] = target_doc
                if anchor not in target_doc.anchors:
                    problem(doc.path, line, f"link to '{target}': {shown} has no heading with the "
                            f"anchor '#{anchor}'")


# ---------------------------------------------------------------- commands


def split_segments(line):
    """A shell line's simple commands: split at ;, &&, || and pipes outside quotes. A '|' between
    spaces followed by an option or '[' is a synopsis' alternative, not a pipe."""
    segments, current, quote, i = [], "", None, 0
    while i < len(line):
        c = line[i]
        if quote:
            current += c
            if c == quote:
                quote = None
        elif c in "'\"":
            quote = c
            current += c
        elif line.startswith("&&", i) or line.startswith("||", i):
            segments.append(current)
            current = ""
            i += 1
        elif c == ";":
            segments.append(current)
            current = ""
        elif c == "|" and (i == 0 or line[i - 1] == " ") and line[i + 1:i + 2] == " " \
                and not re.match(r"\s*[-\[]", line[i + 1:]):
            segments.append(current)
            current = ""
        elif c == "#" and (i == 0 or line[i - 1] in " \t"):
            break  # a comment
        else:
            current += c
        i += 1
    segments.append(current)
    return [s.strip() for s in segments if s.strip()]


def words(segment):
    try:
        return shlex.split(segment)
    except ValueError:
        return segment.split()


class Pbench:
    """pbench's command tree and options, from its own --help."""

    def __init__(self, program):
        self.program = program
        self.helps = {}

    def help(self, path):
        key = tuple(path)
        if key not in self.helps:
            status, out, _ = run_program([self.program, *path, "--help"])
            self.helps[key] = out if status == 0 else None
        return self.helps[key]

    @staticmethod
    def subcommands(help_text):
        names, inside = [], False
        for line in help_text.split("\n"):
            if re.match(r"^[A-Z][A-Za-z ]*:\s*$", line):
                inside = line.strip().rstrip(":").lower() == "subcommands"
                continue
            m = re.match(r"^  (\S+)", line) if inside else None
            if m:
                names.append(m.group(1))
        return names

    @staticmethod
    def options(help_text):
        """{name: takes a value} of every option the help lists."""
        found = {}
        for line in help_text.split("\n"):
            m = re.match(r"^\s+((?:-{1,2}[\w-]+,?\s?)+)(.*)$", line)
            if not m:
                continue
            names = re.findall(r"-{1,2}[\w-]+", m.group(1))
            rest = m.group(2)
            value = re.match(r"\s*(?:[A-Z][A-Z_]*|\[|\{|<)", rest)  # TEXT, INT, [...], ...
            takes = not rest.startswith("  ") and value is not None
            for name in names:
                found[name] = takes
        return found


def check_pbench(doc, i, argv, pbench, describe):
    """`pbench ARGV...`: the command path (an alternative `logp|comm` or a placeholder `WORKER`
    checks each command it may be), then every option against that command's --help."""
    shown = "pbench " + " ".join(argv)
    global_options = Pbench.options(pbench.help([]))
    paths = [[]]
    k = 0
    # Options before the command (global ones) and the command path.
    while k < len(argv):
        word = argv[k].strip("[]")
        if word.startswith("-") and paths[0]:
            break  # the options of the command named so far
        if word.startswith("-"):  # an option before the command: one of pbench's own
            name = word.split("=", 1)[0]
            if name not in global_options:
                problem(doc.path, i + 1, f"`{shown}`: pbench has no option {name}")
            if "=" not in word and global_options.get(name):
                k += 1  # its value
            k += 1
            continue
        helps = [pbench.help(p) for p in paths]
        subs = Pbench.subcommands(helps[0]) if helps[0] else []
        if not subs:
            break
        alternatives = word.split("|")
        if all(a in subs for a in alternatives):
            paths = [p + [a] for p in paths for a in alternatives]
            for p in paths:
                h = pbench.help(p)
                if h is None:
                    problem(doc.path, i + 1, f"`{shown}`: 'pbench {' '.join(p)} --help' failed")
                    return
            k += 1
            continue
        if re.fullmatch(r"[A-Z][A-Z_]*", word):  # a placeholder: any of the commands here
            paths = [p + [s] for p in paths for s in subs]
            k += 1
            break
        # A command the help does not list (hidden, as __complete) exists when its --help is not
        # its parent's (CLI11 answers `pbench sweeep --help` with pbench's own help).
        hidden = [pbench.help(p + [word]) for p in paths]
        if all(h is not None and h != pbench.help(p) for h, p in zip(hidden, paths)):
            paths = [p + [word] for p in paths]
            k += 1
            continue
        missing = [a for a in alternatives if a not in subs]
        problem(doc.path, i + 1, f"`{shown}`: {' '.join(['pbench'] + paths[0])} has no command "
                f"'{'|'.join(missing)}'")
        return
    # The options of the command (and those it inherits from the levels above).
    names = {}
    for p in paths:
        for depth in range(len(p) + 1):
            h = pbench.help(p[:depth])
            if h:
                names.update(Pbench.options(h))
    for word in argv[k:]:
        word = word.strip("[]()")
        m = re.fullmatch(r"(-{1,2}[A-Za-z][\w-]*)(=.*)?", word)
        if m:
            if m.group(1) not in names:
                where = " | ".join(" ".join(p) for p in paths)
                problem(doc.path, i + 1, f"`{shown}`: pbench {where} has no option {m.group(1)}")
    check_set(doc, i, argv, describe)


def check_set(doc, i, argv, describe):
    for k, word in enumerate(argv):
        value = None
        if word == "--set" and k + 1 < len(argv):
            value = argv[k + 1]
        elif word.startswith("--set="):
            value = word[len("--set="):]
        if value:
            check_setting(doc, i, value, describe)


def check_setting(doc, i, value, describe):
    m = re.fullmatch(r"([a-z]+)\.([a-z_0-9]+)=.*", value)
    if not m:
        return  # a placeholder (WORKER.PARAMETER=VALUE, io.NAME=VALUE)
    worker, name = m.groups()
    if worker not in WORKERS:
        problem(doc.path, i + 1, f"--set {value}: no worker '{worker}'")
        return
    params = describe(worker)
    if params is not None and name not in params:
        problem(doc.path, i + 1, f"--set {value}: pbench-{worker} has no parameter '{name}'")


def check_worker(doc, i, worker, argv, worker_help):
    text = worker_help(worker)
    if text is None:
        return
    names = Pbench.options(text)
    for word in argv:
        word = word.strip("[]()")
        m = re.fullmatch(r"(-{1,2}[A-Za-z][\w-]*)(=.*)?", word)
        if m and m.group(1) not in names and m.group(1) not in ("--help", "-h"):
            problem(doc.path, i + 1, f"`pbench-{worker} {' '.join(argv)}`: pbench-{worker} has no "
                    f"option {m.group(1)}")


def check_command_line(doc, i, line, pbench, describe, worker_help):
    for segment in split_segments(line):
        argv = words(segment)
        while argv and (re.fullmatch(r"[A-Za-z_]\w*=.*", argv[0]) or argv[0] in PREFIXES):
            argv = argv[1:]  # VAR=value, sudo, exec, time
        if not argv:
            continue
        if argv[0] == "pbench" and len(argv) > 1 and argv[1].endswith(":"):
            continue  # a message pbench prints ("pbench job: cannot write ..."), not a command
        if argv[0] == "pbench" or argv[0].startswith("pbench-"):
            counts["commands"] += 1
        if argv[0] == "pbench":
            check_pbench(doc, i, argv[1:], pbench, describe)
        elif re.fullmatch(r"pbench-(%s)" % "|".join(WORKERS), argv[0]):
            check_worker(doc, i, argv[0][len("pbench-"):], argv[1:], worker_help)


def check_paths(doc, i, text, root):
    for m in PATH_RE.finditer(text):
        p = m.group(1).rstrip(".,:;")
        if re.search(r"[A-Z]{2,}|<|\{", p) and not os.path.exists(os.path.join(root, p)):
            continue  # a placeholder (tests/integration/AREA/NAME.sh)
        full = os.path.join(root, p)
        counts["paths"] += 1
        if os.path.exists(full) or glob.glob(full) or glob.glob(full + ".*"):
            continue
        problem(doc.path, i + 1, f"'{p}': no such file or directory in the source tree")


def check_commands(doc, pbench, describe, worker_help, root):
    # Shell blocks: continuation lines joined, comments dropped.
    i = 0
    while i < len(doc.lines):
        info = doc.fence_of.get(i, "-")
        if info in SHELL_INFO:
            start, line = i, doc.lines[i]
            # A command continues over a line ending in a backslash, and a synopsis over indented
            # lines of [options] or --options.
            while i + 1 < len(doc.lines) and doc.fence_of.get(i + 1) == info and (
                    line.endswith("\\") or re.match(r"\s+[\[-]", doc.lines[i + 1])):
                i += 1
                line = line.rstrip("\\") + " " + doc.lines[i].strip()
            command = re.sub(r"^\$\s+", "", line.strip())
            if not doc.on_purpose(start) and not command.startswith("#"):
                check_command_line(doc, start, command, pbench, describe, worker_help)
                check_paths(doc, start, command.split(" #")[0], root)
        i += 1
    # Inline code in prose.
    for first, text in doc.paragraphs():
        for offset, content in code_spans(text):
            i = first + text.count("\n", 0, offset)
            if doc.on_purpose(i):
                continue
            if re.match(r"pbench(-\w+)? ", content):
                check_command_line(doc, i, content, pbench, describe, worker_help)
            elif re.fullmatch(r"--set[ =]\S+", content):
                check_setting(doc, i, re.split(r"[ =]", content, 1)[1], describe)
            check_paths(doc, i, content, root)


def check_copies(doc, root):
    """Each block after <!-- copy of PATH --> is PATH; after <!-- excerpt of PATH --> a run of
    its lines."""
    for i, line in enumerate(doc.lines):
        m = re.fullmatch(r"<!-- (copy|excerpt) of (\S+) -->", line.strip())
        if not m or i in doc.fence_of:
            continue
        kind, path = m.groups()
        full = os.path.join(root, path)
        if not os.path.isfile(full):
            problem(doc.path, i + 1, f"'{path}': no such file to be a {kind} of")
            continue
        if doc.fence_of.get(i + 1, "-") is not None:
            problem(doc.path, i + 1, f"no code block right after the {kind} of {path}")
            continue
        end = i + 2
        while doc.fence_of.get(end, "-") is not None and end < len(doc.lines):
            end += 1
        block = doc.lines[i + 2:end]
        counts["copies"] += 1
        wanted = open(full, encoding="utf-8").read().rstrip("\n").split("\n")
        if kind == "copy" and block != wanted:
            differ = next((k for k, (a, b) in enumerate(zip(block, wanted)) if a != b),
                          min(len(block), len(wanted)))
            problem(doc.path, i + 3 + differ, f"the block differs from {path} (its line "
                    f"{differ + 1}: {wanted[differ] if differ < len(wanted) else 'none'!r})")
        elif kind == "excerpt" and not any(wanted[k:k + len(block)] == block
                                           for k in range(len(wanted) - len(block) + 1)):
            problem(doc.path, i + 3, f"the block is not a run of lines of {path}")


def check_width(doc):
    for i, line in doc.prose():
        width = len(line.replace(MARKER, "").rstrip())
        if width > WIDTH and not line.lstrip().startswith("|"):
            problem(doc.path, i + 1, f"a line of {width} columns (at most {WIDTH} outside code and "
                    "tables)")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--root", required=True)
    parser.add_argument("--pbench", required=True)
    parser.add_argument("--worker", action="append", default=[],
                        help="a worker program (repeatable; default: the build tree's)")
    parser.add_argument("files", nargs="*")
    args = parser.parse_args()
    root = os.path.abspath(args.root)
    global ROOT
    ROOT = root
    files = args.files or [os.path.join(root, "README.md")] + sorted(
        glob.glob(os.path.join(root, "docs", "*.md")))
    pbench = Pbench(os.path.abspath(args.pbench))
    if pbench.help([]) is None:
        print(f"FAIL: '{pbench.program} --help' failed: the commands cannot be checked")
        return 1
    given = {os.path.basename(w): os.path.abspath(w) for w in args.worker}

    def worker_program(worker):
        if f"pbench-{worker}" in given:
            return given[f"pbench-{worker}"]
        build = os.path.dirname(os.path.dirname(pbench.program))
        return os.path.join(build, "workers", worker, f"pbench-{worker}")

    described, helped = {}, {}

    def describe(worker):
        if worker not in described:
            status, out, err = run_program([worker_program(worker), "--describe-parameters"])
            if status != 0:
                problems.append(f"pbench-{worker} --describe-parameters failed: {err.strip()}")
                described[worker] = None
            else:
                described[worker] = {p["name"] for p in json.loads(out)["parameters"]}
        return described[worker]

    def worker_help(worker):
        if worker not in helped:
            status, out, err = run_program([worker_program(worker), "--help"])
            helped[worker] = out if status == 0 else None
            if status != 0:
                problems.append(f"pbench-{worker} --help failed: {err.strip()}")
        return helped[worker]

    docs_by_path = {}
    for path in files:
        doc = Doc(os.path.abspath(path))
        docs_by_path[doc.path] = doc
    checked = 0
    for doc in list(docs_by_path.values()):
        check_links(doc, docs_by_path, root)
        check_commands(doc, pbench, describe, worker_help, root)
        check_width(doc)
        check_copies(doc, root)
        checked += 1
    if problems:
        print("\n".join(problems))
        print(f"FAIL: {len(problems)} problems in {checked} files")
        return 1
    print(f"docs: {checked} files ok: {counts['links']} links, {counts['commands']} commands "
          f"({len(pbench.helps)} command helps read), {counts['paths']} paths, "
          f"{counts['copies']} copies of files, prose widths")
    return 0


if __name__ == "__main__":
    sys.exit(main())
