#!/usr/bin/env bash
# The main job on bundled sample data, offline. Called by `make demo` after the bundled skills were
# installed into the skill folder.
#   scripts/demo.sh BIN_DIR SKILLS_DIR DEMO_DIR
# Calendars come from Plugins/CalendarSkill/Samples (iCalendar files); the forecast and place names come
# from a loopback HTTP server that answers like Open-Meteo with Plugins/WeatherSkill/Samples
# (scripts/open-meteo-server.py: /v1/forecast and the geocoding API's /v1/search); reminders are
# kept in DEMO_DIR so the demo never touches your own; mail comes from the sample Maildir in
# Plugins/MailSkill/Samples (the mail skill's configured mailbox).
set -euo pipefail
bin=$1 skills=$2 demo=$3
root=$(cd "$(dirname "$0")/.." && pwd)
rm -rf "$demo" && mkdir -p "$demo"
demo=$(cd "$demo" && pwd)
export XDG_DATA_HOME=$demo/data XDG_STATE_HOME=$demo/state

python3 "$root/scripts/open-meteo-server.py" --log "$demo/weather-server.log" >"$demo/weather-server.port" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null || true' EXIT
for _ in $(seq 100); do [ -s "$demo/weather-server.port" ] && break; sleep 0.1; done
port=$(head -1 "$demo/weather-server.port")

cat >"$demo/config.json" <<JSON
{
  "timeZone": "Europe/Warsaw",
  "skills": {
    "dev.skillhost.calendar": { "calendars": ["$root/Plugins/CalendarSkill/Samples"] },
    "dev.skillhost.mail": { "mailbox": "$root/Plugins/MailSkill/Samples/Maildir" },
    "dev.skillhost.weather": {
      "baseURL": "http://127.0.0.1:$port",
      "geocodingURL": "http://127.0.0.1:$port",
      "places": { "warsaw": { "latitude": 52.23, "longitude": 21.0 } }
    }
  },
  "agent": { "defaults": { "weather.forecast": { "place": "warsaw" } } },
  "grants": {
    "dev.skillhost.calendar": { "read": ["{config:calendars}"] },
    "dev.skillhost.mail": { "read": ["{config:mailbox}"] },
    "dev.skillhost.weather": { "network": ["{config:baseURL}", "{config:geocodingURL}", "api.open-meteo.com:443", "geocoding-api.open-meteo.com:443"] }
  }
}
JSON
show() { local out='$ skillhost' a; for a in "$@"; do case $a in *[\ \"{}]*) out+=" '$a'";; *) out+=" $a";; esac; done; echo; echo "$out"; }
run() { show "$@"; "$bin/skillhost" "$@" --skills-dir "$skills" --config "$demo/config.json"; }

run list
run invoke calendar.events.summary --input '{"from":"2026-11-30","to":"2026-11-30"}'
run invoke calendar.events.list --input '{"from":"2026-11-30","to":"2026-11-30"}' --json
run invoke weather.forecast --input '{"place":"warsaw","days":2}'
run invoke weather.forecast --input '{"place":"东京","days":2}' --json
run invoke reminder.create --input '{"title":"买牛奶 (buy milk)","due":"2026-11-30T18:00:00+01:00"}' --json
run invoke reminder.list --json
run invoke units.convert --input '{"value":5,"from":"km","to":"mi"}'
run invoke mail.triage --input '{"unreadOnly":true}'
# The agent engine, on the sample week ("now" pinned to the Monday the sample calendars fill).
run ask "帮我看看今天有哪些会议要参加，顺便查一下这两天的天气，方便我决定要不要带伞" --now 2026-11-30T08:00:00+01:00
run ask "what meetings do I have tomorrow, and will it rain?" --now 2026-11-30T08:00:00+01:00
run ask "remind me to send the invoice on Friday at 3pm" --now 2026-11-30T08:00:00+01:00
run ask "book me a flight to Tokyo" || echo "(exit code $?: not understood)"
run traces --limit 4
run health
echo
echo "\$ skillhost invoke calendar.events.list --input '{\"from\":\"2026-11-30\",\"to\":\"2026-30-11\"}' --json   # bad input, on purpose"
"$bin/skillhost" invoke calendar.events.list --input '{"from":"2026-11-30","to":"2026-30-11"}' --json \
  --skills-dir "$skills" --config "$demo/config.json" || echo "(exit code $?: invalid_input)"
echo
echo "\$ skillhost invoke weather.forecast --input '{\"place\":\"Springfield\"}'   # an ambiguous place name: the candidates, not a guess"
"$bin/skillhost" invoke weather.forecast --input '{"place":"Springfield"}' \
  --skills-dir "$skills" --config "$demo/config.json" || echo "(exit code $?: invalid_input)"
echo
echo "Demo config: $demo/config.json  (try: export SKILLHOST_CONFIG=$demo/config.json)"
