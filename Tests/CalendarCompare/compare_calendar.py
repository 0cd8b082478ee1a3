#!/usr/bin/env python3
"""Compares the calendar skill with Python's icalendar + recurring-ical-events on a corpus of .ics files.

For every file, every zone (Europe/Warsaw, UTC, America/Los_Angeles by default) and every calendar year in
the range (1990–2030 by default), both sides list the VEVENT occurrences that overlap the year in that
zone. A file "agrees on counts" in a zone when the number of occurrences is equal in every year, and
"agrees on starts" when the multiset of start instants (all-day events: start dates) is equal in every
year. Files the oracle cannot read (it raises) are left out of the percentages, as the skill still has
to survive them: it is run on every file, and its crashes and timeouts are counted over all of them.

The skill runs through the real binaries: one `skillhost mcp` process per zone (host + isolated worker +
the real libCalendarSkill.so), driven over stdio by a minimal JSON-RPC client. Rationale: one
`skillhost invoke` per call costs a process start, a scan and a worker start (~20,000 calls per run);
the MCP server keeps one host and one worker alive and serves each call in a few milliseconds, through
the same invoker, worker and skill code. The skill is installed with `--grant all` (it asks to read its
configured calendars); the calendar it reads is switched between calls by replacing the one file in its
configured folder (the skill reads its files on every call).

Known, deliberate differences, normalized on the oracle's side: the skill hides STATUS:CANCELLED events
and instances, so they are dropped; the skill skips (and reports) a VEVENT without DTSTART and any series
it cannot read while keeping the rest of the file, so the oracle is asked the same way (VEVENTs without
DTSTART removed before the query); a file with a series the oracle cannot expand is left out, as the
issue's comparison did.

Downloads nothing: the corpus is checked in (Tests/CalendarCorpus), the oracle comes from the venv that
`make compare-calendar` builds from requirements.txt.

Usage: compare_calendar.py --bin .build/debug [--corpus Tests/CalendarCorpus] [--zones A,B] [--years 1990-2030]
Exit status: 0 when every zone reaches --goal percent on both measures with 0 crashes and 0 timeouts.
"""

import argparse
import datetime
import json
import os
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import warnings
import zoneinfo

DEFAULT_ZONES = ["Europe/Warsaw", "UTC", "America/Los_Angeles"]
INTENT = "calendar.events.list"


# MARK: - Oracle (icalendar + recurring-ical-events)

class OracleTimeout(Exception):
    pass


def _alarm(signum, frame):
    raise OracleTimeout()


def oracle_starts(path, zone_name, years, timeout):
    """{year: sorted list of start keys} for one file in one zone, or raises."""
    import icalendar
    import recurring_ical_events

    zone = zoneinfo.ZoneInfo(zone_name)
    first, last = years[0], years[-1]
    window_start = datetime.datetime(first, 1, 1, tzinfo=zone)
    window_end = datetime.datetime(last + 1, 1, 1, tzinfo=zone)
    year_bounds = [(y, datetime.datetime(y, 1, 1, tzinfo=zone).timestamp(),
                    datetime.datetime(y + 1, 1, 1, tzinfo=zone).timestamp()) for y in years]

    signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(timeout)
    try:
        with open(path, "rb") as f:
            calendar = icalendar.Calendar.from_ical(f.read())
        if calendar.name != "VCALENDAR":   # a bare VEVENT file: the skill reads it too
            wrapper = icalendar.Calendar()
            wrapper.add_component(calendar)
            calendar = wrapper
        for component in [calendar] + list(calendar.walk()):
            component.subcomponents = [c for c in component.subcomponents
                                       if not (c.name == "VEVENT" and "DTSTART" not in c)]
        occurrences = list(recurring_ical_events.of(calendar).between(window_start, window_end))
    finally:
        signal.alarm(0)

    def instant(value):
        if isinstance(value, datetime.datetime):
            if value.tzinfo is None:
                value = value.replace(tzinfo=zone)   # floating: read in the caller's zone, as the skill does
            return value.timestamp()
        return datetime.datetime(value.year, value.month, value.day, tzinfo=zone).timestamp()

    result = {y: [] for y in years}
    for event in occurrences:
        if str(event.get("STATUS", "")).upper() == "CANCELLED":
            continue
        start_prop = event["DTSTART"]
        start = (start_prop[0] if isinstance(start_prop, list) else start_prop).dt
        end_prop = event.get("DTEND")
        end = (end_prop[0] if isinstance(end_prop, list) else end_prop).dt if end_prop is not None else None
        if end is None and event.get("DURATION") is not None:
            duration = event["DURATION"]
            end = start + (duration[0] if isinstance(duration, list) else duration).dt
        s = instant(start)
        e = instant(end) if end is not None else s
        if not isinstance(start, datetime.datetime) and end is None:
            e = s + 86400   # an all-day event without an end lasts its day
        key = start.isoformat() if not isinstance(start, datetime.datetime) else int(round(s))
        for y, ys, ye in year_bounds:
            overlaps = (s >= ys and s < ye) if e <= s else (s < ye and e > ys)
            if overlaps:
                result[y].append(key)
    return {y: sorted(v, key=str) for y, v in result.items()}


# MARK: - The skill, through `skillhost mcp`

class SkillServer:
    """One `skillhost mcp` for one zone; `list(path, year)` answers with the skill's start keys."""

    def __init__(self, bin_dir, work, zone, call_timeout):
        self.bin_dir, self.zone, self.call_timeout = bin_dir, zone, call_timeout
        self.work = os.path.join(work, zone.replace("/", "_"))
        self.skills_dir = os.path.join(self.work, "skills.d")
        self.calendars = os.path.join(self.work, "calendars")
        os.makedirs(self.skills_dir, exist_ok=True)
        os.makedirs(self.calendars, exist_ok=True)
        self.current = os.path.join(self.calendars, "current.ics")
        self.config = os.path.join(self.work, "config.json")
        with open(self.config, "w") as f:
            json.dump({"skills": {"dev.skillhost.calendar": {"calendars": [self.calendars]}}, "timeZone": zone}, f)
        # Installed the owner's way: the skill asks to read its configured calendars (the sandbox lets
        # its worker read nothing else), and `--grant all` records that consent in this config.
        so = os.path.join(bin_dir, "libCalendarSkill.so")
        install = subprocess.run([os.path.join(bin_dir, "skillhost"), "install", so, "--skills-dir", self.skills_dir,
                                  "--grant", "all", "--config", self.config], capture_output=True, text=True, env=self.env())
        if install.returncode != 0:
            raise RuntimeError(f"skillhost install {so} failed:\n{install.stdout}{install.stderr}")
        self.proc = None
        self.next_id = 0
        self.tool = None

    def env(self):
        return {"HOME": self.work, "XDG_STATE_HOME": os.path.join(self.work, "state"),
                "XDG_CONFIG_HOME": os.path.join(self.work, "config"), "XDG_DATA_HOME": os.path.join(self.work, "data"),
                "PATH": os.environ.get("PATH", "/usr/bin:/bin"), "TZ": self.zone}

    def start(self):
        self.proc = subprocess.Popen([os.path.join(self.bin_dir, "skillhost"), "mcp", "--skills-dir", self.skills_dir,
                                      "--config", self.config],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                     env=self.env(), bufsize=0)
        self.buffer = b""
        self.request("initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                                    "clientInfo": {"name": "compare_calendar", "version": "1"}})
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        tools = self.request("tools/list", {})["result"]["tools"]
        names = [t["name"] for t in tools if INTENT in json.dumps(t.get("_meta", {})) or t["name"].startswith(INTENT)]
        if not names:
            raise RuntimeError(f"skillhost mcp offers no tool for {INTENT}: {[t['name'] for t in tools]}")
        self.tool = names[0]

    def stop(self):
        if self.proc:
            try:
                self.proc.stdin.close()
                self.proc.wait(timeout=5)
            except Exception:
                self.proc.kill()
                self.proc.wait()
            self.proc = None

    def send(self, message):
        self.proc.stdin.write((json.dumps(message) + "\n").encode())

    def request(self, method, params):
        self.next_id += 1
        wanted = self.next_id
        self.send({"jsonrpc": "2.0", "id": wanted, "method": method, "params": params})
        deadline = time.monotonic() + self.call_timeout
        while True:
            while b"\n" in self.buffer:
                line, self.buffer = self.buffer.split(b"\n", 1)
                if not line.strip():
                    continue
                message = json.loads(line)
                if message.get("id") == wanted and ("result" in message or "error" in message):
                    return message
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(method)
            ready, _, _ = select.select([self.proc.stdout], [], [], left)
            if ready:
                chunk = os.read(self.proc.stdout.fileno(), 1 << 20)
                if not chunk:
                    raise RuntimeError("skillhost mcp exited")
                self.buffer += chunk

    def point_at(self, path):
        """The one calendar the skill reads from now on: a copy in the granted folder (a symbolic link
        out of it would be followed to a file the sandbox does not let the worker read)."""
        tmp = self.current + ".new"
        shutil.copyfile(path, tmp)
        os.replace(tmp, self.current)

    def list(self, year):
        """(start keys, None) or (None, error kind)."""
        if self.proc is None:
            self.start()
        try:
            reply = self.request("tools/call", {"name": self.tool,
                                                "arguments": {"from": f"{year}-01-01", "to": f"{year}-12-31"}})
        except TimeoutError:
            self.stop()
            return None, "client-timeout"
        except RuntimeError:
            self.stop()
            return None, "host-exited"
        result = reply.get("result") or {}
        if result.get("isError"):
            kind = (((result.get("_meta") or {}).get("dev.skillhost/error")) or {}).get("kind", "error")
            return None, kind
        events = result["structuredContent"]["events"]
        keys = []
        for e in events:
            if e["allDay"]:
                keys.append(e["start"])
            else:
                keys.append(int(round(datetime.datetime.fromisoformat(e["start"].replace("Z", "+00:00")).timestamp())))
        return sorted(keys, key=str), None


# MARK: - Driver

def corpus_files(root):
    files = []
    for dirpath, _, names in os.walk(root):
        files.extend(os.path.join(dirpath, n) for n in names if n.lower().endswith(".ics"))
    return sorted(files)


def main():
    warnings.simplefilter("ignore")
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bin", required=True, help="folder with skillhost, skillhost-worker and libCalendarSkill.so")
    parser.add_argument("--corpus", default=os.path.join(here, "..", "CalendarCorpus"))
    parser.add_argument("--zones", default=",".join(DEFAULT_ZONES))
    parser.add_argument("--years", default="1990-2030")
    parser.add_argument("--goal", type=float, default=99.0)
    parser.add_argument("--timeout", type=int, default=30, help="seconds per call, each side")
    parser.add_argument("--details", action="store_true", help="print every differing file")
    parser.add_argument("--json", help="write the per-file results here")
    args = parser.parse_args()

    first, last = (int(x) for x in args.years.split("-"))
    years = list(range(first, last + 1))
    zones = args.zones.split(",")
    files = corpus_files(args.corpus)
    if not files:
        sys.exit(f"no .ics files under {args.corpus}")

    work = tempfile.mkdtemp(prefix="compare-calendar-")

    table = []
    details = {}
    exit_code = 0
    try:
        for zone in zones:
            server = SkillServer(args.bin, work, zone, args.timeout)
            counted = counts_equal = starts_equal = 0
            crashes = timeouts = errors = refused = 0
            skill_seconds = oracle_seconds = 0.0
            calls = 0
            differing = []
            for path in files:
                name = os.path.relpath(path, args.corpus)
                t0 = time.monotonic()
                try:
                    expected = oracle_starts(path, zone, years, args.timeout)
                except OracleTimeout:
                    expected = None
                except Exception:
                    expected = None
                oracle_seconds += time.monotonic() - t0

                server.point_at(path)
                got, kinds = {}, {}
                t0 = time.monotonic()
                for year in years:
                    keys, kind = server.list(year)
                    calls += 1
                    if kind:
                        kinds[year] = kind
                    else:
                        got[year] = keys
                skill_seconds += time.monotonic() - t0
                kind_set = set(kinds.values())
                crashes += 1 if "crashed" in kind_set or "host-exited" in kind_set else 0
                timeouts += 1 if "timeout" in kind_set or "client-timeout" in kind_set else 0
                errors += 1 if kind_set - {"crashed", "host-exited", "timeout", "client-timeout"} else 0

                if expected is None:
                    refused += 1
                    continue
                counted += 1
                same_counts = all(y in got and len(got[y]) == len(expected[y]) for y in years)
                same_starts = all(y in got and got[y] == expected[y] for y in years)
                counts_equal += same_counts
                starts_equal += same_starts
                if not (same_counts and same_starts):
                    year = next(y for y in years if y not in got or got[y] != expected[y])
                    differing.append(name)
                    details.setdefault(zone, {})[name] = {
                        "year": year, "skill": got.get(year, kinds.get(year)), "oracle": expected[year]}
            server.stop()
            pc = 100.0 * counts_equal / counted if counted else 100.0
            ps = 100.0 * starts_equal / counted if counted else 100.0
            table.append((zone, len(files), counted, pc, ps, crashes, timeouts, errors, refused, calls,
                          skill_seconds, oracle_seconds))
            if pc < args.goal or ps < args.goal or crashes or timeouts:
                exit_code = 1
            if differing:
                print(f"{zone}: {len(differing)} differing file(s)", file=sys.stderr)
                for name in differing if args.details else differing[:10]:
                    d = details[zone][name]
                    print(f"  {name} (first in {d['year']}): skill {str(d['skill'])[:160]} / oracle {str(d['oracle'])[:160]}",
                          file=sys.stderr)
    finally:
        shutil.rmtree(work, ignore_errors=True)

    print(f"calendar skill vs icalendar + recurring-ical-events, {len(files)} files, years {first}-{last}, one call per year")
    print("| zone | files | oracle reads | equal counts | equal starts | crashes | timeouts | skill errors | skill calls | skill s | oracle s |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for (zone, n, counted, pc, ps, crashes, timeouts, errors, refused, calls, ss, os_) in table:
        print(f"| {zone} | {n} | {counted} | {pc:.1f} % | {ps:.1f} % | {crashes} | {timeouts} | {errors} | {calls} | {ss:.1f} | {os_:.1f} |")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(details, f, indent=1, default=str)
    sys.exit(exit_code)


if __name__ == "__main__":
    main()
