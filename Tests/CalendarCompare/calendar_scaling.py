#!/usr/bin/env python3
"""Parsing-scaling benchmark of the calendar skill through the real binaries (`make bench-calendar`).

For each file shape the issue measured (60,000 nested `BEGIN:X-A` … `END:X-A`, 40,000 unmatched `END`
lines) and two ordinary ones (many events; a year of a long recurring series with many overrides), a
file of 1×, 2×, 4× and 8× the base size is generated, and `calendar.events.list` for one year is called
--runs times on each through one `skillhost mcp` (host, worker and libCalendarSkill.so, as in
compare_calendar.py). Prints the median time per call and its ratio to 1×: linear parsing shows
ratios near 1/2/4/8 once the fixed cost of a call (~ the 1× time of a tiny file) is small next to the
parse. Exit status 1 when 8× takes more than 16× (quadratic growth would be ~64×) or a call fails.

Usage: calendar_scaling.py --bin .build/release [--runs 5] [--scale 1]
"""

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from compare_calendar import SkillServer  # noqa: E402


def nested(n):
    depth = int(60_000 * n)
    return ["BEGIN:VCALENDAR"] + ["BEGIN:X-A"] * depth + ["END:X-A"] * depth + ["END:VCALENDAR"]


def unmatched(n):
    return ["BEGIN:VCALENDAR"] + ["END:X-B"] * int(40_000 * n) + ["END:VCALENDAR"]


def events(n):
    lines = ["BEGIN:VCALENDAR"]
    for i in range(int(12_500 * n)):
        day = 1 + i % 28
        lines += ["BEGIN:VEVENT", f"UID:e{i}", f"DTSTART;TZID=Europe/Warsaw:202603{day:02d}T{8 + i % 10:02d}0000",
                  "DURATION:PT30M", f"SUMMARY:Event {i}", "END:VEVENT"]
    return lines + ["END:VCALENDAR"]


def overrides(n):
    lines = ["BEGIN:VCALENDAR", "BEGIN:VEVENT", "UID:series", "DTSTART;TZID=Europe/Warsaw:20200101T090000",
             "DURATION:PT15M", "RRULE:FREQ=DAILY", "SUMMARY:Standup", "END:VEVENT"]
    for i in range(int(2_500 * n)):
        # Overrides of instances, most of them outside the window: the series is walked once regardless.
        year, day = 2020 + i // 365, 1 + i % 28
        month = 1 + (i // 28) % 12
        lines += ["BEGIN:VEVENT", "UID:series", f"RECURRENCE-ID;TZID=Europe/Warsaw:{year:04d}{month:02d}{day:02d}T090000",
                  f"DTSTART;TZID=Europe/Warsaw:{year:04d}{month:02d}{day:02d}T100000", "DURATION:PT15M",
                  f"SEQUENCE:{i % 3}", "END:VEVENT"]
    return lines + ["END:VCALENDAR"]


SHAPES = [("nested BEGIN/END X-A (60,000 pairs at 1x)", nested),
          ("unmatched END lines (40,000 at 1x)", unmatched),
          ("events with TZID (12,500 at 1x)", events),
          ("daily series + overrides (2,500 at 1x)", overrides)]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bin", required=True)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--scale", type=float, default=1.0, help="multiply every base size (e.g. 0.25 for a quick run)")
    parser.add_argument("--year", type=int, default=2026)
    args = parser.parse_args()

    work = tempfile.mkdtemp(prefix="calendar-scaling-")
    server = SkillServer(args.bin, work, "UTC", call_timeout=120)
    status = 0
    print(f"calendar parsing scaling through skillhost mcp ({args.bin}), median of {args.runs} calls of "
          f"calendar.events.list for {args.year}, base sizes x{args.scale:g}")
    print("| shape | 1x MB | 1x s | 2x s | 4x s | 8x s | ratios 2x/4x/8x |")
    print("|---|---|---|---|---|---|---|")
    try:
        for name, make in SHAPES:
            medians, size1 = [], 0
            for n in (1, 2, 4, 8):
                path = os.path.join(work, f"shape-{n}.ics")
                with open(path, "w", newline="") as f:
                    f.write("\r\n".join(make(n * args.scale)) + "\r\n")
                if n == 1:
                    size1 = os.path.getsize(path)
                server.point_at(path)
                times = []
                for _ in range(args.runs):
                    t0 = time.monotonic()
                    _, kind = server.list(args.year)
                    times.append(time.monotonic() - t0)
                    if kind:
                        print(f"  {name} {n}x: the call failed ({kind})", file=sys.stderr)
                        status = 1
                medians.append(statistics.median(times))
            ratios = [m / medians[0] for m in medians[1:]]
            if ratios[-1] > 16:
                status = 1
            print(f"| {name} | {size1 / 1e6:.2f} | " + " | ".join(f"{m:.3f}" for m in medians)
                  + " | " + "/".join(f"{r:.1f}" for r in ratios) + " |")
    finally:
        server.stop()
        shutil.rmtree(work, ignore_errors=True)
    sys.exit(status)


if __name__ == "__main__":
    main()
