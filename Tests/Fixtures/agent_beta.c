/* agent_beta.c — agent engine fixture "beta" (see agent_fixture.h): intent fixture.beta.run,
 * recognized by "beta" / "贝塔". */
#define AGENT_ID "test.fixture.beta"
#define AGENT_NAME "Beta"
#define AGENT_VERSION "1.0.0"
#define AGENT_TAG "v1"
#define AGENT_INTENT "fixture.beta.run"
#define AGENT_KEYWORDS "{\"en\":[\"beta\"],\"zh\":[\"贝塔\"]}"
#define AGENT_EXAMPLES "[{\"lang\":\"en\",\"text\":\"run beta tomorrow\",\"input\":{}}]"
#define AGENT_PEER "fixture.alpha.run"
#include "agent_fixture.h"
