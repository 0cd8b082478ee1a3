/* agent_plants.c — agent engine fixture "plants" (see agent_fixture.h): intent fixture.plants.water,
 * declared with examples only (no keywords), in English and Chinese — the engine learns it from them. */
#define AGENT_ID "test.fixture.plants"
#define AGENT_NAME "Plants"
#define AGENT_VERSION "1.0.0"
#define AGENT_TAG "v1"
#define AGENT_INTENT "fixture.plants.water"
#define AGENT_KEYWORDS "{}"
#define AGENT_EXAMPLES "[{\"lang\":\"en\",\"text\":\"water the houseplants today\",\"input\":{}}," \
    "{\"lang\":\"en\",\"text\":\"give the ficus some water\",\"input\":{}}," \
    "{\"lang\":\"zh\",\"text\":\"给绿萝浇水\",\"input\":{}}," \
    "{\"lang\":\"zh\",\"text\":\"花该浇水了\",\"input\":{}}]"
#define AGENT_PEER "fixture.alpha.run"
#include "agent_fixture.h"
