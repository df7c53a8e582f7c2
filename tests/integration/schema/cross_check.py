#!/usr/bin/python3
"""The schema drift test: the C++ result validator (valijson) and Python's jsonschema (the
reference implementation of JSON Schema; the schema is draft 7, which valijson supports) must
agree on every sample result document, and both must agree with the verdict of the sample's
folder:

  good/           valid for both, and passes the C++ semantic checks too
  bad/            invalid for both, each breaking exactly one rule (one problem from each)
  bad-semantics/  valid for both, but fails the C++ semantic checks

Run with Debian's /usr/bin/python3 (python3-jsonschema); exits 0 when all agree, 1 otherwise.
"""
import argparse
import json
import pathlib
import subprocess
import sys

try:
    import jsonschema
except ImportError:
    sys.exit("cross_check: the jsonschema module is missing (apt install python3-jsonschema; "
             "run with /usr/bin/python3)")


def cpp_verdicts(validator, files, semantics):
    """{path: list of problems} from pbench-validate-result (empty when it says VALID)."""
    argv = [validator] + (["--semantics"] if semantics else []) + [str(f) for f in files]
    run = subprocess.run(argv, capture_output=True, text=True, check=False)
    if run.returncode not in (0, 1):
        sys.exit(f"cross_check: {argv[0]} exited {run.returncode}: {run.stderr.strip()}")
    verdicts = {}
    current = None
    for line in run.stdout.splitlines():
        if line.startswith("  ") and current is not None:
            verdicts[current].append(line.strip())
            continue
        verdict, _, current = line.partition(" ")
        if verdict not in ("VALID", "INVALID"):
            sys.exit(f"cross_check: unexpected output line {line!r}")
        verdicts[current] = []
    missing = [str(f) for f in files if str(f) not in verdicts]
    if missing:
        sys.exit(f"cross_check: no verdict from the C++ validator for {missing}")
    return verdicts


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--schema", required=True, type=pathlib.Path)
    parser.add_argument("--samples", required=True, type=pathlib.Path)
    parser.add_argument("--validator", required=True, help="the pbench-validate-result binary")
    args = parser.parse_args()

    schema = json.loads(args.schema.read_text())
    jsonschema.Draft7Validator.check_schema(schema)
    reference = jsonschema.Draft7Validator(schema)  # no format_checker: formats not asserted

    folders = {"good": (0, 0), "bad": (1, None), "bad-semantics": (0, 1)}
    failures = []
    checked = 0
    for folder, (schema_invalid, semantics_invalid) in folders.items():
        files = sorted((args.samples / folder).glob("*.json"))
        if not files:
            failures.append(f"{folder}/: no samples")
            continue
        cpp_schema = cpp_verdicts(args.validator, files, semantics=False)
        cpp_semantics = cpp_verdicts(args.validator, files, semantics=True)
        for f in files:
            checked += 1
            name = f"{folder}/{f.name}"
            errors = list(reference.iter_errors(json.loads(f.read_text())))
            py_count = len(errors)
            cpp_problems = cpp_schema[str(f)]
            cpp_count = len(cpp_problems)
            if (py_count > 0) != bool(schema_invalid):
                detail = "; ".join(f"{list(e.absolute_path)}: {e.message}" for e in errors)
                failures.append(f"{name}: jsonschema says {'invalid' if py_count else 'valid'}"
                                + (f" ({detail})" if detail else ""))
            if (cpp_count != 0) != bool(schema_invalid):
                failures.append(f"{name}: the C++ validator says "
                                f"{'invalid' if cpp_count else 'valid'}"
                                + (f" ({'; '.join(cpp_problems)})" if cpp_problems else ""))
            if (py_count > 0) != (cpp_count != 0):
                failures.append(f"{name}: jsonschema and the C++ validator disagree")
            if folder == "bad" and (py_count != 1 or cpp_count != 1):
                failures.append(f"{name}: breaks more than one rule or none (jsonschema "
                                f"{py_count} errors, C++ {cpp_count} problems)")
            if semantics_invalid is not None and not schema_invalid:
                extra = len(cpp_semantics[str(f)]) > cpp_count
                if extra != bool(semantics_invalid):
                    failures.append(f"{name}: the semantic checks say "
                                    f"{'invalid' if extra else 'valid'}")

    for failure in failures:
        print(f"FAIL {failure}")
    print(f"cross_check: {checked} samples, {len(failures)} disagreements")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
