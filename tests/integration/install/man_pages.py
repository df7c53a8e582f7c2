#!/usr/bin/env python3
"""The installed man pages against the installed programs and schema and the site profile
reader. Usage: man_pages.py MANDIR BINDIR SCHEMADIR SITE_PROFILE_CPP

- MANDIR holds exactly: man1/ a page per program of BINDIR and per command `pbench --help`
  lists (pbench-COMMAND), man5/pbench-site.5.gz and man7/pbench-store.7.gz;
- every page renders without a warning; each man1 page has NAME, SYNOPSIS, EXIT STATUS,
  ENVIRONMENT, FILES, EXAMPLES and SEE ALSO, and its EXAMPLES run its program (`pbench COMMAND`,
  the worker);
- every example of every page (the lines of its code blocks) that runs pbench or a worker names
  a command and options the program's --help has;
- pbench-site(5) lists, under KEYS, exactly the keys the profile reader takes (each table's
  keys under its own heading);
- pbench-store(7) names every table and view of the installed schema, and its lists name no
  other.
Prints one line per check; exits 1 naming every failure.
"""
import glob
import gzip
import os
import re
import shlex
import subprocess
import sys

mandir, bindir, schemadir, site_cpp = sys.argv[1:5]
failures = []


def fail(message):
    failures.append(message)


def run(argv):
    return subprocess.run(argv, capture_output=True, text=True)


def render(page):
    """The page as man shows it (UTF-8, wide lines), and what groff warned."""
    env = dict(os.environ, LANG="C.UTF-8", LC_ALL="C.UTF-8", MANWIDTH="200", MANPAGER="cat",
               MANROFFSEQ="")
    out = subprocess.run(["man", "--warnings", "-E", "UTF-8", "-l", page], capture_output=True,
                         text=True, env=env)
    return out.stdout, out.stderr.strip()


def sections(text):
    """{SECTION: its lines} of a rendered page (headings start in column 0)."""
    result, current = {}, None
    for line in text.splitlines():
        if re.match(r"^[A-Z][A-Z ]*[A-Z]$", line):
            current = line
            result[current] = []
        elif current:
            result[current].append(line)
    return result


def code_lines(page):
    """The lines of a page's code blocks (.EX ... .EE), roff escapes undone."""
    lines, inside = [], False
    with gzip.open(page, "rt", encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith(".EX"):
                inside = True
            elif line.startswith(".EE"):
                inside = False
            elif inside:
                for roff, plain in (("\\(dq", '"'), ("\\(aq", "'"), ("\\(ga", "`"),
                                    ("\\(ti", "~"), ("\\(ha", "^"), ("\\-", "-"),
                                    ("\\&", ""), ("\\e", "\\")):
                    line = line.replace(roff, plain)
                lines.append(line)
    return lines


help_cache = {}


def help_of(*argv):
    if argv not in help_cache:
        out = run([os.path.join(bindir, argv[0])] + list(argv[1:]) + ["--help"])
        if out.returncode != 0:
            fail(f"{' '.join(argv)} --help failed: {out.stderr.strip()}")
        help_cache[argv] = out.stdout
    return help_cache[argv]


def has_option(help_text, option):
    return re.search(r"(^|[\s,])" + re.escape(option) + r"([\s,=\[]|$)", help_text, re.M)


# The commands `pbench --help` lists (under "Subcommands:").
pbench_help = help_of("pbench")
commands = []
listing = pbench_help.split("\nSubcommands:\n", 1)[1] if "\nSubcommands:\n" in pbench_help else ""
for line in listing.splitlines():
    m = re.match(r"^  ([a-z][a-z-]*)  +", line)
    if m:
        commands.append(m.group(1))
    elif line and not line.startswith(" "):
        break
if not commands:
    fail("no commands in `pbench --help`")
workers = sorted(os.path.basename(p) for p in glob.glob(os.path.join(bindir, "pbench-*")))
global_options = ["--db", "--runs-dir", "--scheduler-outage"]


# The commands whose words go on to a subcommand of their own (`pbench query logp`, `pbench
# store verify`), each with its own options.
GROUPS = ("query", "store")


def subcommands_of(group):
    text = help_of("pbench", group)
    part = text.split("\nSubcommands:\n", 1)[1] if "\nSubcommands:\n" in text else ""
    return [m.group(1) for m in re.finditer(r"^  ([a-z][a-z-]*)  +", part, re.M)]


def check_pbench_words(words, where):
    """pbench WORDS...: a command pbench has, and options its --help (or pbench's) lists."""
    rest, command = [], []
    i = 0
    while i < len(words):
        word = words[i]
        if word in global_options:
            i += 2
            continue
        if word.split("=", 1)[0] in global_options:
            i += 1
            continue
        if not word.startswith("-") and len(command) < 2:
            if not command:
                command.append(word)
            elif command[0] in GROUPS:
                command.append(word)
            else:
                rest.append(word)
        else:
            rest.append(word)
        i += 1
    if not command:
        return None
    if command[0] not in commands:
        fail(f"{where}: 'pbench {command[0]}': not a command of pbench ({', '.join(commands)})")
        return None
    if command[0] in GROUPS and len(command) > 1 and command[1] not in subcommands_of(command[0]):
        fail(f"{where}: 'pbench {command[0]} {command[1]}': not a subcommand of pbench "
             f"{command[0]}")
        return None
    text = help_of("pbench", *command) + pbench_help
    for word in rest:
        if word.startswith("-") and len(word) > 1 and not re.match(r"^-\d", word):
            option = word.split("=", 1)[0]
            if not has_option(text, option):
                fail(f"{where}: 'pbench {' '.join(command)}' has no option {option}")
    return command[0]


def check_worker_words(worker, words, where):
    text = help_of(worker)
    for word in words:
        if word.startswith("-") and len(word) > 1:
            option = word.split("=", 1)[0]
            if not has_option(text, option):
                fail(f"{where}: {worker} has no option {option}")


def check_examples(page, name):
    """Every pbench or worker invocation in the page's code blocks; what they run."""
    ran = set()
    for line in code_lines(page):
        try:
            lexer = shlex.shlex(line, posix=True, punctuation_chars=True)
            lexer.whitespace_split = True
            tokens = list(lexer)
        except ValueError:
            continue  # not shell (Python, TOML)
        segment, skip = [], False
        for token in tokens + [";"]:
            if skip:  # a redirection's file
                skip = False
            elif token in (">", ">>", "<"):
                skip = True
            elif token in ("|", "||", "&&", ";", "&"):
                words, segment = segment, []
                while words and re.match(r"^[A-Za-z_][A-Za-z0-9_]*=", words[0]):
                    words = words[1:]  # VARIABLE=value before the command
                where = f"{name}: example '{line.strip()}'"
                if words and words[0] == "pbench":
                    command = check_pbench_words(words[1:], where)
                    ran.add("pbench")
                    if command:
                        ran.add("pbench-" + command)
                elif words:
                    for i, word in enumerate(words):
                        if word in workers:
                            check_worker_words(word, words[i + 1:], where)
                            ran.add(word)
                            break
            else:
                segment.append(token)
    return ran


# The page set.
expected = {f"man1/{p}.1.gz" for p in ["pbench"] + workers + [f"pbench-{c}" for c in commands]}
expected |= {"man5/pbench-site.5.gz", "man7/pbench-store.7.gz"}
found = {os.path.relpath(p, mandir) for p in glob.glob(os.path.join(mandir, "man*", "*"))}
if found != expected:
    fail(f"the pages in {mandir} are not those of the programs and commands: missing "
         f"{sorted(expected - found)}, not expected {sorted(found - expected)}")
print(f"{len(found)} pages: {len(commands)} commands, {len(workers)} workers, pbench, "
      "pbench-site(5), pbench-store(7)")

required = ["NAME", "SYNOPSIS", "EXIT STATUS", "ENVIRONMENT", "FILES", "EXAMPLES", "SEE ALSO"]
texts = {}
for relative in sorted(expected & found):
    page = os.path.join(mandir, relative)
    name = os.path.basename(relative).rsplit(".", 2)[0]
    text, warnings = render(page)
    texts[name] = text
    if warnings:
        fail(f"{relative}: man warns: {warnings}")
    parts = sections(text)
    if relative.startswith("man1/"):
        missing = [s for s in required if s not in parts]
        if missing:
            fail(f"{relative}: no section {', '.join(missing)} (has {', '.join(parts)})")
        elif not any(line.strip() for line in parts["EXAMPLES"]):
            fail(f"{relative}: EXAMPLES is empty")
    ran = check_examples(page, relative)
    if relative.startswith("man1/") and name not in ran:
        fail(f"{relative}: no example runs {name}")
print(f"man1: each page has {', '.join(required)}; every example's command and options exist")

# pbench-site(5): the keys under KEYS, per table, against the reader's only_keys lists.
source = open(site_cpp, encoding="utf-8").read()
reader_keys = {}
for m in re.finditer(r"only_keys\(([^,]+),\s*([^,]+),\s*\{([^}]*)\}\)", source):
    prefix = m.group(2).strip()
    keys = set(re.findall(r'"([a-z_]+)"', m.group(3)))
    before = source[:m.start()]
    function = re.findall(r"\n[A-Za-z:<>]+ (\w+)\(", before)[-1]
    table = {'""': "Top level", '"scheduler."': "[scheduler]"}.get(prefix)
    if table is None:
        table = {"launcher_of": "[launcher]", "environment_of": "[[environment]]"}.get(function)
    if table is None:
        fail(f"{site_cpp}: only_keys with prefix {prefix} in {function}: which table?")
        continue
    reader_keys[table] = keys
if set(reader_keys) != {"Top level", "[scheduler]", "[launcher]", "[[environment]]"}:
    fail(f"{site_cpp}: the key lists found are {sorted(reader_keys)}")
page_keys, heading = {}, None
for line in sections(texts.get("pbench-site", "")).get("KEYS", []):
    if re.match(r"^   \S", line):
        heading = line.strip()
        page_keys.setdefault(heading, set())
    m = re.match(r"^\s+• ([a-z_]+): ", line)
    if m and heading in reader_keys:
        page_keys[heading].add(m.group(1))
for table, keys in sorted(reader_keys.items()):
    listed = page_keys.get(table, set())
    if listed != keys:
        fail(f"pbench-site(5), KEYS, {table}: lists {sorted(listed)}; the reader takes "
             f"{sorted(keys)} (missing {sorted(keys - listed)}, not read {sorted(listed - keys)})")
print(f"pbench-site(5): the keys of {', '.join(sorted(reader_keys))} as the reader takes them")

# pbench-store(7): every table and view of the schema; its lists name no other.
schema = "".join(open(p, encoding="utf-8").read() for p in glob.glob(os.path.join(schemadir, "*.sql")))
names = set(re.findall(r"CREATE (?:TABLE|VIEW)(?: IF NOT EXISTS)? (\w+)", schema))
store = sections(texts.get("pbench-store", ""))
body = "\n".join(line for s in ("TABLES", "CATALOGUE", "VIEWS", "KEPT ANSWERS")
                 for line in store.get(s, []))
missing = sorted(n for n in names if not re.search(r"\b" + n + r"\b", body))
listed = set()
for m in re.finditer(r"^\s+• ([a-z_, ]+):", body, re.M):
    listed |= {n.strip() for n in m.group(1).split(",")}
unknown = sorted(listed - names)
if missing or unknown:
    fail(f"pbench-store(7): names no {missing}; lists {unknown}, which the schema lacks")
print(f"pbench-store(7): {len(names)} tables and views of {schemadir}, each described")

if failures:
    for f in failures:
        print(f"FAIL: {f}", file=sys.stderr)
    sys.exit(1)
