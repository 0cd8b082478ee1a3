#!/usr/bin/env python3
"""`make eval`: runs the real `skillhost ask --json` over Tests/Eval/requests.jsonl and prints, per class
and per split (dev / held-out), intent accuracy, parameter accuracy, fully correct, false writes and the
recognition latency (the engine's own "understanding" → "planning" phase times, p50).

Each request runs in a fresh home (its own XDG folders, so reminders written by one request are not
seen by the next) against the bundled skills: calendar (the skill's samples), weather (an unreachable
forecast server: recognition and parameters are what is measured, not the forecast), reminders,
units, and the mail skill when SKILLHOST_MAIL_SKILL names its .so. "Now" is Monday 2026-11-30 08:00
in Asia/Shanghai.

A request is fully correct when the recognized intents are the expected ones (one of the alternatives
per expected slot, nothing else), every expected parameter has the expected value (text compared
case-insensitively, numbers as numbers), and, for requests that must not write, no step that changes
something was planned. A false write is a planned step of an intent that is not read-only in a request
marked mustNotWrite."""
import argparse, json, os, shutil, statistics, subprocess, sys, tempfile
from collections import defaultdict

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
NOW = "2026-11-30T08:00:00+08:00"

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True, help="folder with skillhost and the bundled skills' .so files")
    ap.add_argument("--set", default=os.path.join(ROOT, "Tests/Eval/requests.jsonl"))
    ap.add_argument("--show", choices=["none", "failures", "all"], default="failures")
    ap.add_argument("--only", default="", help="run only ids or classes containing this text")
    ap.add_argument("--split", default="", help="run only these splits (comma-separated: dev, heldout, fresh)")
    a = ap.parse_args()
    rows = [json.loads(l) for l in open(a.set, encoding="utf-8") if l.strip()]
    if a.only:
        rows = [r for r in rows if a.only in r["id"]]
    if a.split:
        rows = [r for r in rows if r["split"] in a.split.split(",")]
    work = tempfile.mkdtemp(prefix="skillhost-eval-")
    try:
        skills = os.path.join(work, "skills")
        os.makedirs(skills)
        for so in ["libCalendarSkill.so", "libWeatherSkill.so", "libReminderSkill.so", "libUnitsSkill.so"]:
            src = os.path.join(a.bin, so)
            if not os.path.exists(src):
                sys.exit(f"eval: {src} is missing: build first (make build-debug)")
            shutil.copy(src, skills)
        mail = os.environ.get("SKILLHOST_MAIL_SKILL", "")
        if mail and os.path.exists(mail):
            shutil.copy(mail, skills)
        config = os.path.join(work, "config.json")
        calendars = os.path.join(ROOT, "Plugins/CalendarSkill/Samples")
        mailbox = os.path.join(ROOT, "Plugins/MailSkill/Samples")
        json.dump({"timeZone": "Asia/Shanghai",
                   "skills": {"dev.skillhost.calendar": {"calendars": [calendars]},
                              "dev.skillhost.weather": {"baseURL": "http://127.0.0.1:1", "timeoutMs": 500,
                                                        "places": {"home": {"latitude": 31.23, "longitude": 121.47}}}},
                   "agent": {"defaults": {"weather.forecast": {"place": "home"}}},
                   "grants": {"dev.skillhost.calendar": {"read": ["{config:calendars}"]},
                              "dev.skillhost.weather": {"network": ["{config:baseURL}"]}}}, open(config, "w"))
        skillhost = os.path.join(a.bin, "skillhost")
        writes = write_intents(skillhost, skills, config, work)
        results = [run(skillhost, skills, config, work, i, r, writes) for i, r in enumerate(rows)]
    finally:
        shutil.rmtree(work, ignore_errors=True)
    report(rows, results, writes, a.show)

def env_for(work, i, config):
    home = os.path.join(work, "home%s" % i)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SKILLHOST_", "XDG_"))}
    env.update(HOME=home, XDG_CONFIG_HOME=home + "/.config", XDG_DATA_HOME=home + "/.local/share",
               XDG_STATE_HOME=home + "/.local/state", SKILLHOST_CONFIG=config, SWIFT_BACKTRACE="enable=no")
    return env

def write_intents(skillhost, skills, config, work):
    """Intents that change something: those not flagged readOnly, as `skillhost list --json` shows them."""
    out = subprocess.run([skillhost, "list", "--json", "--skills-dir", skills], capture_output=True, text=True,
                         env=env_for(work, "list", config))
    data = json.loads(out.stdout)
    names = set()
    for s in data if isinstance(data, list) else data.get("skills", []):
        for it in s.get("intents", []):
            flags = it.get("flags", [])
            if "read-only" not in flags and "readOnly" not in flags:
                names.add(it.get("name") or it.get("intent"))
    if not names:
        sys.exit("eval: `skillhost list --json` named no intent that writes; the false-write count would mean nothing")
    return names

def run(skillhost, skills, config, work, i, row, writes):
    p = subprocess.run([skillhost, "ask", row["text"], "--json", "--now", NOW, "--skills-dir", skills],
                       capture_output=True, text=True, env=env_for(work, i, config), timeout=120)
    shutil.rmtree(os.path.join(work, "home%s" % i), ignore_errors=True)
    try:
        o = json.loads(p.stdout)
    except ValueError:
        return {"error": f"exit {p.returncode}: {p.stdout[:200]} {p.stderr[:200]}", "intents": [], "params": {}, "planned": [],
                "ms": None, "status": None}
    phases = {e["phase"]: e["atMs"] for e in o.get("phases", [])}
    ms = phases["planning"] - phases["understanding"] if "planning" in phases and "understanding" in phases else None
    return {"intents": [x["intent"].split("@")[0] for x in o.get("intents", [])],
            "params": {x["intent"].split("@")[0]: x.get("parameters", {}) for x in o.get("intents", [])},
            "planned": [s["intent"].split("@")[0] for s in o.get("plan", {}).get("steps", [])],
            "status": o.get("status"), "answer": o.get("answer", ""), "ms": ms, "error": None}

def same(expected, got):
    if isinstance(expected, (int, float)) and not isinstance(expected, bool):
        return isinstance(got, (int, float)) and abs(got - expected) < 1e-6
    if isinstance(expected, str) and isinstance(got, str):
        return expected.strip().lower() == got.strip().lower()
    return expected == got

def judge(row, res, writes):
    got = list(res["intents"])
    intent_ok = len(got) == len(row["intents"])
    for alts in row["intents"]:
        hit = next((g for g in got if g in alts), None)
        if hit is None:
            intent_ok = False
        else:
            got.remove(hit)
    params_ok = True
    for intent, want in row["params"].items():
        have = res["params"].get(intent)
        if have is None:
            continue  # an alternative intent was taken (e.g. summary for list): judged by the intent check
        for k, v in want.items():
            if not same(v, have.get(k)):
                params_ok = False
    false_write = row["mustNotWrite"] and any(s in writes for s in res["planned"])
    return intent_ok, params_ok and intent_ok, false_write

def report(rows, results, writes, show):
    by = defaultdict(list)
    for row, res in zip(rows, results):
        j = judge(row, res, writes)
        for key in (row["class"], "split:" + row["split"], "lang:" + row["lang"], "ALL"):
            by[key].append((j, res["ms"]))
        ok = j[0] and j[1] and not j[2]
        if show == "all" or (show == "failures" and not ok):
            flag = "FALSE WRITE " if j[2] else ""
            print(f"{flag}{'ok ' if ok else 'BAD'} {row['id']:18} {row['text'][:60]!r}\n      want {row['intents']} {json.dumps(row['params'], ensure_ascii=False)}"
                  f"\n      got  {res['intents']} {json.dumps(res['params'], ensure_ascii=False)} planned={res['planned']} status={res['status']}"
                  + (f" error={res['error']}" if res["error"] else ""))
    print()
    print(f"{'class':22} {'n':>4} {'intent':>7} {'params':>7} {'fully':>7} {'false writes':>13} {'p50 ms':>7} {'max ms':>7}")
    order = sorted(k for k in by if ":" not in k and k != "ALL") + sorted(k for k in by if k.startswith("lang:")) \
        + sorted(k for k in by if k.startswith("split:")) + ["ALL"]
    for k in order:
        v = by[k]
        n = len(v)
        it = sum(1 for (j, _) in v if j[0]); pa = sum(1 for (j, _) in v if j[1])
        full = sum(1 for (j, _) in v if j[0] and j[1] and not j[2]); fw = sum(1 for (j, _) in v if j[2])
        ms = [m for (_, m) in v if m is not None]
        p50 = statistics.median(ms) if ms else float("nan")
        mx = max(ms) if ms else float("nan")
        print(f"{k:22} {n:4} {100*it/n:6.1f}% {100*pa/n:6.1f}% {100*full/n:6.1f}% {fw:13} {p50:7.1f} {mx:7.1f}")

if __name__ == "__main__":
    main()
