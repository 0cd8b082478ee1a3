/* agent_garden.c — agent engine fixture "garden" (see agent_fixture.h): intent fixture.garden.water,
 * declared in German only ("de" keywords and examples), for the German language pack. */
#define AGENT_ID "test.fixture.garden"
#define AGENT_NAME "Garten"
#define AGENT_VERSION "1.0.0"
#define AGENT_TAG "v1"
#define AGENT_INTENT "fixture.garden.water"
#define AGENT_KEYWORDS "{\"de\":[\"gießen\",\"gieß\",\"pflanzen\",\"blumen\"]}"
#define AGENT_EXAMPLES "[{\"lang\":\"de\",\"text\":\"gieß heute die Pflanzen\",\"input\":{}}," \
    "{\"lang\":\"de\",\"text\":\"die Blumen im Garten gießen\",\"input\":{}}]"
#define AGENT_PEER "fixture.alpha.run"
#include "agent_fixture.h"
