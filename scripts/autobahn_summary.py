#!/usr/bin/env python3
"""Summarises an Autobahn|Testsuite client report (index.json): counts by result, and the
cases that did not pass, with the suite's own words for why."""
import json
import os
import sys
from collections import Counter

RESULTS = ["OK", "NON-STRICT", "INFORMATIONAL", "UNIMPLEMENTED", "FAILED"]


def case_key(case_id):
    return [int(part) for part in case_id.split(".")]


def main(report_dir, agent):
    with open(os.path.join(report_dir, "index.json")) as handle:
        index = json.load(handle)
    if agent not in index:
        sys.exit("no results for agent %s in %s (agents: %s)" % (agent, report_dir, ", ".join(index)))
    cases = index[agent]
    behaviors = Counter(case["behavior"] for case in cases.values())
    closes = Counter(case["behaviorClose"] for case in cases.values())
    print("Autobahn results for %s: %d cases" % (agent, len(cases)))
    print("  by result:       " + "  ".join("%s %d" % (name, behaviors.get(name, 0)) for name in RESULTS))
    others = {name: count for name, count in behaviors.items() if name not in RESULTS}
    if others:
        print("  other results:   %s" % others)
    print("  close handling:  " + "  ".join("%s %d" % (name, count) for name, count in sorted(closes.items())))
    failed = sorted((case_id for case_id, case in cases.items() if case["behavior"] == "FAILED" or case["behaviorClose"] == "FAILED"), key=case_key)
    for case_id in failed:
        case = cases[case_id]
        detail = ""
        report = case.get("reportfile")
        if report and os.path.exists(os.path.join(report_dir, report)):
            with open(os.path.join(report_dir, report)) as handle:
                data = json.load(handle)
            detail = "%s | %s" % (data.get("result", ""), data.get("resultClose", ""))
        print("  FAILED %s (behavior %s, close %s): %s" % (case_id, case["behavior"], case["behaviorClose"], detail))
    groups = Counter()
    for case_id, case in cases.items():
        if case["behavior"] == "UNIMPLEMENTED":
            groups[case_id.split(".")[0]] += 1
    if groups:
        print("  unimplemented by section: " + ", ".join("%s.x %d" % item for item in sorted(groups.items(), key=lambda item: int(item[0]))))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else "courier"))
