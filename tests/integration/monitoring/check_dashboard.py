#!/usr/bin/env python3
"""Checks the Grafana dashboard shipped in share/pbench/prometheus/ against a real export:
the file is JSON with panels and templating as Grafana reads them, every metric name a query or
variable names is a family of the export, and every PromQL expression parses (written into a
rules file of recording rules for `promtool check rules`, the template variables given values).
Usage: check_dashboard.py DASHBOARD EXPORT RULES_OUT"""
import json
import re
import sys

# The template variables' values for parsing ($sweep, $env: regular expressions).
VARIABLES = {"$sweep": "nightly", "$env": ".*"}
METRIC = re.compile(r"\b(pbench_[a-z0-9_]+)")


def expressions(dashboard):
    """(where, PromQL) of every panel query and every query variable's selector."""
    out = []
    panels = dashboard.get("panels")
    assert isinstance(panels, list) and panels, "no panels"
    for panel in panels:
        targets = panel.get("targets")
        assert isinstance(targets, list) and targets, f"panel {panel.get('title')!r} has no query"
        for target in targets:
            out.append((f"panel {panel['title']!r} {target['refId']}", target["expr"]))
    for variable in dashboard["templating"]["list"]:
        if variable["type"] != "query":
            continue
        query = variable["query"]["query"]
        found = re.fullmatch(r"label_values\((.+), *([a-zA-Z_]+)\)", query)
        assert found, f"variable {variable['name']}: not label_values(SELECTOR, LABEL): {query}"
        out.append((f"variable {variable['name']}", found.group(1)))
    return out


def main():
    dashboard_path, export_path, rules_path = sys.argv[1:4]
    dashboard = json.load(open(dashboard_path, encoding="utf-8"))
    assert dashboard.get("title") and dashboard.get("uid"), "a dashboard needs a title and uid"
    families = set(re.findall(r"^# TYPE (\S+) gauge$", open(export_path, encoding="utf-8").read(),
                              re.M))
    assert families, f"{export_path}: no families"
    rules = ["groups:", "  - name: pbench-dashboard", "    rules:"]
    for i, (where, expr) in enumerate(expressions(dashboard)):
        names = METRIC.findall(expr)
        assert names, f"{where}: names no pbench metric: {expr}"
        missing = sorted(set(names) - families)
        assert not missing, f"{where}: {missing} not in the export (its families: {sorted(families)})"
        for name, value in VARIABLES.items():
            expr = expr.replace(name, value)
        assert "$" not in expr, f"{where}: a template variable the check does not know: {expr}"
        rules += [f"      - record: pbench_dashboard:query_{i}", f"        expr: {json.dumps(expr)}"]
    open(rules_path, "w", encoding="utf-8").write("\n".join(rules) + "\n")
    print(f"{dashboard_path}: {(len(rules) - 3) // 2} queries over {len(families)} families")


if __name__ == "__main__":
    main()
