/* Compile-time checks that pin the layout of the ABI structs on this platform.
 * If one of these fails, a change to skillhost.h moved a field that must never move. */
#include "skillhost.h"

_Static_assert(offsetof(skh_skill, abi_major) == 0, "abi_major must be the first field");
_Static_assert(offsetof(skh_skill, abi_minor) == 4, "abi_minor must be the second field");
_Static_assert(offsetof(skh_skill, struct_size) == 8, "struct_size must be the third field");
_Static_assert(offsetof(skh_host, abi_major) == 0, "skh_host starts with its version");
_Static_assert(offsetof(skh_call, struct_size) == 0, "skh_call starts with its size");
_Static_assert(offsetof(skh_intent, struct_size) == 0, "skh_intent starts with its size");

/* Fields added in 1.1 start exactly where the 1.0 structs ended (LP64 sizes of 1.0: skh_skill 120,
 * skh_intent 72, skh_host 64), so a 1.0 struct_size says "none of the 1.1 fields". */
#if defined(__LP64__)
_Static_assert(offsetof(skh_skill, abi_minor_required) == 120, "1.1 fields of skh_skill follow the 1.0 layout");
_Static_assert(offsetof(skh_intent, version) == 72, "1.1 fields of skh_intent follow the 1.0 layout");
_Static_assert(offsetof(skh_host, time_left_ms) == 64, "1.1 services of skh_host follow the 1.0 layout");
#endif

/* The 1.2 field of skh_skill starts where the 1.1 struct ended (LP64 size of 1.1: 128). */
#if defined(__LP64__)
_Static_assert(offsetof(skh_skill, permissions) == 128, "1.2 fields of skh_skill follow the 1.1 layout");
_Static_assert(sizeof(skh_skill) == 136, "skh_skill 1.2 is 136 bytes");
_Static_assert(offsetof(skh_permissions, network) == 8, "skh_permissions starts with its size and flags");
_Static_assert(sizeof(skh_permissions) == 40, "skh_permissions 1.2 is 40 bytes");
#endif

/* The 1.3 field of skh_intent starts where the 1.1 struct ended (LP64 size of 1.1 and 1.2: 80). */
#if defined(__LP64__)
_Static_assert(offsetof(skh_intent, feeds) == 80, "1.3 fields of skh_intent follow the 1.2 layout");
_Static_assert(sizeof(skh_intent) == 88, "skh_intent 1.3 is 88 bytes");
#endif
