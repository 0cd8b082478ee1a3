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

.PHONY: all build build-debug c-skills mail-skill install-skills demo test bench clean

all: build

# Host, worker and the bundled Swift skills (release), plus the bundled C skill and the mail skill.
build:
	$(SWIFT) build -c release
	$(MAKE) -s -C Plugins/UnitsSkill OUT=$(RELEASE)
	$(MAKE) --no-print-directory mail-skill

# The mail skill from its own package → $(MAIL_SKILL).
mail-skill:
	$(SWIFT) build -c release --package-path Plugins/MailSkill

build-debug:
	$(SWIFT) build
	$(MAKE) -s -C Plugins/UnitsSkill OUT=$(DEBUG)

# Validates each bundled skill and moves it into $(SKILLS_DIR) atomically (skillhost install).
install-skills: build
	@for so in CalendarSkill WeatherSkill ReminderSkill UnitsSkill; do \
	  $(RELEASE)/skillhost install $(RELEASE)/lib$$so.so --skills-dir $(SKILLS_DIR) || exit 1; \
	done
	@$(RELEASE)/skillhost install $(MAIL_SKILL) --skills-dir $(SKILLS_DIR)

# The main job on bundled sample data, offline: calendar from .ics samples, weather from a loopback
# Open-Meteo-compatible server, reminders in a throwaway data folder.
demo: install-skills
	@bash scripts/demo.sh $(RELEASE) $(SKILLS_DIR) $(DEMO)

# Every test: unit tests per module, plugin tests, and end-to-end tests of the real binaries. The mail
# skill's own package tests run first, so the main suite's summary comes last; the end-to-end tests load
# the release libMailSkill.so through SKILLHOST_MAIL_SKILL.
test: build-debug
	$(MAKE) --no-print-directory mail-skill
	$(SWIFT) test --package-path Plugins/MailSkill --disable-swift-testing
	SKILLHOST_BIN_DIR=$(DEBUG) SKILLHOST_MAIL_SKILL=$(abspath $(MAIL_SKILL)) $(SWIFT) test --disable-swift-testing

# Benchmarks (release build): scan/registration, invoke in-process and in a worker, worker memory and
# crash recovery, each next to a baseline measured in the same run.
bench: build
	SKILLHOST_BIN_DIR=$(RELEASE) $(RELEASE)/skillhost-bench

clean:
	$(SWIFT) package clean
	$(MAKE) -s -C Plugins/UnitsSkill clean
	$(SWIFT) package clean --package-path Plugins/MailSkill
	rm -rf $(DEMO)
