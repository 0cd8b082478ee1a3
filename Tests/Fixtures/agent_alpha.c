/* agent_alpha.c — agent engine fixture "alpha" (see agent_fixture.h): intent fixture.alpha.run,
 * recognized by "alpha" / "阿尔法". */
#define AGENT_ID "test.fixture.alpha"
#define AGENT_NAME "Alpha"
#define AGENT_VERSION "1.0.0"
#define AGENT_TAG "v1"
#define AGENT_INTENT "fixture.alpha.run"
#define AGENT_KEYWORDS "{\"en\":[\"alpha\"],\"zh\":[\"阿尔法\"]}"
#define AGENT_EXAMPLES "[{\"lang\":\"en\",\"text\":\"run alpha today\",\"input\":{}}]"
#define AGENT_PEER "fixture.beta.run"
#include "agent_fixture.h"
