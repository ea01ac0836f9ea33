"""Prints, from a Schemathesis NDJSON report, how many requests each operation received in
each phase and the statuses it answered (so the docs can say what the run reached)."""
import collections
import json
import sys

requests = collections.defaultdict(collections.Counter)  # (operation, phase) -> statuses
for line in open(sys.argv[1], encoding="utf-8"):
    event = json.loads(line)
    finished = event.get("ScenarioFinished")
    if not finished:
        continue
    recorder = finished.get("recorder", {})
    cases = recorder.get("cases", {})
    for case_id, interaction in recorder.get("interactions", {}).items():
        case = cases.get(case_id, {}).get("value", {})
        operation = f"{case.get('method', '?')} {case.get('path', '?')}"
        response = interaction.get("response") or {}
        status = str(response.get("status_code", "no answer"))
        requests[(operation, finished.get("phase", "?"))][status] += 1

# The coverage phase also sends each path the methods it does not serve (405 expected): one
# line for them all.
unserved = collections.Counter()
for key in [key for key, statuses in requests.items() if set(statuses) == {"405"}]:
    unserved[key[1]] += sum(requests.pop(key).values())
phases = sorted({phase for _, phase in requests})
operations = sorted({operation for operation, _ in requests})
print("Requests per operation and phase (statuses):")
for operation in operations:
    cells = []
    for phase in phases:
        statuses = requests.get((operation, phase))
        if statuses:
            detail = ", ".join(f"{s}×{n}" for s, n in sorted(statuses.items()))
            cells.append(f"{phase} {sum(statuses.values())} ({detail})")
    print(f"  {operation}: " + "; ".join(cells))
for phase, n in sorted(unserved.items()):
    print(f"  methods a path does not serve: {phase} {n} (405×{n})")
total = sum(sum(s.values()) for s in requests.values()) + sum(unserved.values())
print(f"  total: {total}")
