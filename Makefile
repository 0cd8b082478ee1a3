# skillhost — build, demo, test, bench. Everything a fresh clone needs beyond the Swift toolchain,
# cc and python3 is built here.
SWIFT      ?= swift
RELEASE    := $(shell $(SWIFT) build -c release --show-bin-path 2>/dev/null)
DEBUG      := $(shell $(SWIFT) build --show-bin-path 2>/dev/null)
SKILLS_DIR ?= skills.d
DEMO       := .build/demo
# The mail skill is a package of its own (Plugins/MailSkill), built against the SDK the way an outside
# team builds a skill; one release build serves `make build` and `make test`.
MAIL_SKILL := Plugins/MailSkill/.build/release/libMailSkill.so

MCP_VENV   := .build/mcp-venv
CAL_VENV   := .build/calendar-venv

.PHONY: all build build-debug c-skills mail-skill install-skills demo test bench clean mcp-venv \
        compare-calendar bench-calendar bench-instructions calendar-venv eval traditional-table train-dialog install deb

all: build

# Host, worker and the bundled Swift skills (release), plus the bundled C skill and the mail skill.
build:
	$(SWIFT) build -c release
	$(MAKE) -s -C Plugins/UnitsSkill OUT=$(RELEASE)
	$(MAKE) --no-print-directory mail-skill

# The mail skill from its own package → $(MAIL_SKILL). SwiftPM does not notice a file added to a
# path dependency (SkillKit) once it has planned the build: the plan is dropped so it is made again
# (a second or two), or a new SkillKit file would be missing from the mail skill's builds (release and
# the debug one of its tests).
mail-skill:
	rm -f Plugins/MailSkill/.build/*/*/description.json
	$(SWIFT) build -c release --package-path Plugins/MailSkill

build-debug:
	$(SWIFT) build
	$(MAKE) -s -C Plugins/UnitsSkill OUT=$(DEBUG)

# `make install PREFIX=/usr/local [DESTDIR=…]`: the binaries with the Swift runtime beside them
# (lib/skillhost, RUNPATH $ORIGIN-relative), the bundled skills in the system skill folder
# (lib/skillhost/skills.d), skillhost.h + skillhost.pc, the SDK for `skillhost new`, the man page and
# the bash/zsh/fish completions (scripts/install.sh). `make deb`: the same as a Debian package in
# .build/deb/ (scripts/deb.sh; needs patchelf and dpkg-dev).
PREFIX  ?= /usr/local
DESTDIR ?=
install: build
	bash scripts/install.sh $(RELEASE) $(PREFIX) "$(DESTDIR)" $(abspath $(MAIL_SKILL))

deb: build
	bash scripts/deb.sh $(RELEASE) .build/deb $(abspath $(MAIL_SKILL))

# Validates each bundled skill and moves it into $(SKILLS_DIR) atomically (skillhost install).
# Consent is given with --grant all and recorded in $(INSTALL_CONFIG), not in your own config; the demo's
# config (scripts/demo.sh) states the same grants for its sample paths.
INSTALL_CONFIG := .build/install-grants.json
install-skills: build
	@mkdir -p .build && { test -s $(INSTALL_CONFIG) || echo '{}' > $(INSTALL_CONFIG); }
	@for so in CalendarSkill WeatherSkill ReminderSkill UnitsSkill; do \
	  $(RELEASE)/skillhost install $(RELEASE)/lib$$so.so --skills-dir $(SKILLS_DIR) --grant all --config $(INSTALL_CONFIG) || exit 1; \
	done
	@$(RELEASE)/skillhost install $(MAIL_SKILL) --skills-dir $(SKILLS_DIR) --grant all --config $(INSTALL_CONFIG)

# The main job on bundled sample data, offline: calendar from .ics samples, weather from a loopback
# Open-Meteo-compatible server, reminders in a throwaway data folder.
demo: install-skills
	@bash scripts/demo.sh $(RELEASE) $(SKILLS_DIR) $(DEMO)

# Every test: unit tests per module, plugin tests, and end-to-end tests of the real binaries; then
# `skillhost mcp` driven by the official MCP Python client (from the venv below; never skipped), over
# Streamable HTTP (directly, and two instances behind Debian's nginx) and over stdio. The mail skill's
# own package tests run first; the end-to-end tests load the release libMailSkill.so through
# SKILLHOST_MAIL_SKILL. The stdio MCP client's summary comes last.
test: build-debug mcp-venv
	$(MAKE) --no-print-directory mail-skill
	$(SWIFT) test --package-path Plugins/MailSkill --disable-swift-testing
	SKILLHOST_BIN_DIR=$(DEBUG) SKILLHOST_MAIL_SKILL=$(abspath $(MAIL_SKILL)) $(SWIFT) test --disable-swift-testing
	SKILLHOST_BIN_DIR=$(DEBUG) SKILLHOST_MAIL_SKILL=$(abspath $(MAIL_SKILL)) $(MCP_VENV)/bin/python Tests/MCP/test_mcp_http.py
	SKILLHOST_BIN_DIR=$(DEBUG) $(MCP_VENV)/bin/python Tests/MCP/test_mcp_client.py

# `skillhost ask` measured on Tests/Eval/requests.jsonl (zh and en requests with expected intents,
# parameters and "must not write"; splits dev, heldout and fresh): intent and parameter accuracy, false
# writes and recognition latency per class, through the real release binaries and bundled skills.
eval: build
	SKILLHOST_MAIL_SKILL=$(abspath $(MAIL_SKILL)) python3 Tests/Eval/run_eval.py --bin $(RELEASE) --show none

# Regenerates the traditional → simplified table from Data/opencc/TSCharacters.txt (OpenCC, Apache-2.0).
traditional-table:
	python3 scripts/gen_traditional_table.py

# Retrains the dialog-act model on Data/dialog/corpus.jsonl (standard library only), prints held-out
# accuracy and rewrites Sources/SkillHostCore/Engine/Recognition/DialogModelWeights.swift.
train-dialog:
	python3 scripts/train_dialog.py

# A Python virtual environment with the official MCP SDK, for the MCP client tests and the MCP
# benchmark. The version is pinned (MCP_PY_VERSION, the one the tests last passed with), so a release
# upstream cannot turn CI red overnight; raise it on purpose, run `make test`, commit. Made once per
# version; fails loudly when python3-venv or the package index is missing.
MCP_PY_VERSION := 2.3.0
mcp-venv: $(MCP_VENV)/.installed-$(MCP_PY_VERSION)
$(MCP_VENV)/.installed-$(MCP_PY_VERSION):
	python3 -m venv $(MCP_VENV) || { echo "python3 -m venv failed: install python3-venv (.ci/run does)"; exit 1; }
	$(MCP_VENV)/bin/pip install -q --disable-pip-version-check mcp==$(MCP_PY_VERSION) || { echo "pip install mcp==$(MCP_PY_VERSION) failed: the MCP client tests cannot run"; exit 1; }
	rm -f $(MCP_VENV)/.installed*
	touch $@

# Benchmarks (release build): scan/registration, invoke in-process and in a worker, worker memory and
# crash recovery, each next to a baseline measured in the same run; then `skillhost mcp` next to an
# echo server written with the Python MCP SDK, and the time from a .so landing to list_changed.
bench: build mcp-venv
	SKILLHOST_BIN_DIR=$(RELEASE) $(RELEASE)/skillhost-bench
	$(MCP_VENV)/bin/python Benchmarks/mcp_bench.py --bin $(RELEASE)

# Instructions per call in the host process, by valgrind's callgrind (deterministic where wall and CPU
# time move with the machine's load): for comparing two commits on a busy machine. Needs valgrind.
bench-instructions: build
	bash Benchmarks/instructions.sh $(RELEASE)

# The calendar skill next to Python's icalendar + recurring-ical-events (pinned in
# Tests/CalendarCompare/requirements.txt) on the checked-in corpus (Tests/CalendarCorpus), one-year
# windows 1990–2030 in Europe/Warsaw, UTC and America/Los_Angeles, through `skillhost mcp`. Prints the
# table; fails below 99 % equal counts or starts in any zone, or on any crash or timeout.
compare-calendar: build-debug calendar-venv
	$(CAL_VENV)/bin/python Tests/CalendarCompare/compare_calendar.py --bin $(DEBUG)

# Parsing scaling of the calendar skill (1x, 2x, 4x, 8x the issue's pathological files and two ordinary
# shapes), release build, through `skillhost mcp`: medians and ratios. Python standard library only.
bench-calendar: build
	python3 Tests/CalendarCompare/calendar_scaling.py --bin $(RELEASE)

# The oracle's virtual environment (made once per requirements change; the corpus is checked in).
calendar-venv: $(CAL_VENV)/.installed
$(CAL_VENV)/.installed: Tests/CalendarCompare/requirements.txt
	python3 -m venv $(CAL_VENV) || { echo "python3 -m venv failed: install python3-venv (.ci/run does)"; exit 1; }
	$(CAL_VENV)/bin/pip install -q --disable-pip-version-check -r Tests/CalendarCompare/requirements.txt || { echo "pip install of the calendar oracle failed: make compare-calendar cannot run"; exit 1; }
	touch $@

clean:
	$(SWIFT) package clean
	$(MAKE) -s -C Plugins/UnitsSkill clean
	$(SWIFT) package clean --package-path Plugins/MailSkill
	rm -rf $(DEMO)
