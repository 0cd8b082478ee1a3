/* agent_alpha_changed.c — a newer build of agent_alpha.c (version 1.1.0) that answers differently
 * (tag "v2"): dropped next to the old one it shadows it, and a replay of a trace recorded with the
 * old one must report the changed output (replay --check exits 1). */
#define AGENT_ID "test.fixture.alpha"
#define AGENT_NAME "Alpha"
#define AGENT_VERSION "1.1.0"
#define AGENT_TAG "v2"
#define AGENT_INTENT "fixture.alpha.run"
#define AGENT_KEYWORDS "{\"en\":[\"alpha\"],\"zh\":[\"阿尔法\"]}"
#define AGENT_EXAMPLES "[{\"lang\":\"en\",\"text\":\"run alpha today\",\"input\":{}}]"
#define AGENT_PEER "fixture.beta.run"
#include "agent_fixture.h"
