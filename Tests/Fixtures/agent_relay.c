/* agent_relay.c — agent engine fixture "relay" (see agent_fixture.h): intent fixture.relay.scan,
 * recognized by "relay" / "接力", that declares a chain rule (skh_intent.feeds, ABI 1.3): its result's
 * "day" feeds fixture.alpha.run's "day". */
#define AGENT_ID "test.fixture.relay"
#define AGENT_NAME "Relay"
#define AGENT_VERSION "1.0.0"
#define AGENT_TAG "v1"
#define AGENT_INTENT "fixture.relay.scan"
#define AGENT_KEYWORDS "{\"en\":[\"relay\"],\"zh\":[\"接力\"]}"
#define AGENT_EXAMPLES "[{\"lang\":\"en\",\"text\":\"scan the relay tomorrow\",\"input\":{}}]"
#define AGENT_PEER "fixture.alpha.run"
#define AGENT_FEEDS "[{\"intent\":\"fixture.alpha.run\",\"fields\":{\"day\":{\"path\":\"day\",\"pick\":\"earliestDay\"}}}]"
#include "agent_fixture.h"
