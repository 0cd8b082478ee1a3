/* schema_text_forms.c — a valid skill whose JSON-text fields are written the ways people write them:
 * pretty-printed with newlines and tabs, with escapes (\", \\, \n, \/, \u00e9, a surrogate pair), non-ASCII
 * text, numbers in several forms (1.50, 1e2, -0), empty containers, and a top-level scalar as an output schema.
 * The scan process sends a field that is one valid JSON object or array as the value itself (minified)
 * and anything else as text; `list --json` must show exactly what the host's own parse of each text
 * gives (ScanAnswerTests pins the output, as the host printed it before the scan process sent values). */
#include "skillhost.h"

static void invoke(const skh_call *call)
{
    call->complete(call, SKH_STATUS_OK, "{}", 2, NULL);
}

static const skh_intent intents[] = {
    {
        .struct_size = sizeof(skh_intent),
        .flags = SKH_INTENT_READ_ONLY,
        .name = "fixture.text_forms",
        .description = "Schemas in every form.",
        .input_schema = "{\n"
                        "\t\"type\" : \"object\",\n"
                        "  \"description\": \"a \\\"quoted\\\" \\\\ back\\/slash\\nline \\u00e9 \\ud83d\\ude00 é\",\n"
                        "  \"properties\": {\n"
                        "    \"n\": { \"type\": \"number\", \"minimum\": -0, \"maximum\": 1e2, \"default\": 1.50 },\n"
                        "    \"tags\": { \"type\": \"array\", \"items\": {}, \"maxItems\": 3 },\n"
                        "    \"mode\": { \"enum\": [ \"a b\", null, true, 1.0 ] }\n"
                        "  },\n"
                        "  \"required\" : [ ]\n"
                        "}\n",
        .output_schema = "true",
        .confidence = 1.0,
        .keywords = " { \"en\" : [ \"forms\" , \"text forms\" ], \"fr\": [\"formes\", \"\\u00e9t\\u00e9\"] } ",
        .examples = "[\n  {\"lang\": \"en\", \"text\": \"all forms\", \"input\": {\"n\": 2.5, \"tags\": [ ]}}\n]",
    },
};

static const skh_skill skill = {
    .abi_major = SKH_ABI_VERSION_MAJOR,
    .abi_minor = SKH_ABI_VERSION_MINOR,
    .struct_size = sizeof(skh_skill),
    .flags = SKH_SKILL_THREAD_SAFE,
    .id = "test.fixture.textforms",
    .name = "Text forms",
    .version = "1.0.0",
    .category = "testing",
    .vendor = "skillhost tests",
    .description = "Declares its JSON text in many forms.",
    .intent_count = 1,
    .intents = intents,
    .invoke = invoke,
};

const skh_skill *skillhost_entry(void);
const skh_skill *skillhost_entry(void) { return &skill; }
