/* Compile-time checks that pin the layout of the ABI structs on this platform.
 * If one of these fails, a change to skillhost.h moved a field that must never move. */
#include "skillhost.h"

_Static_assert(offsetof(skh_skill, abi_major) == 0, "abi_major must be the first field");
_Static_assert(offsetof(skh_skill, abi_minor) == 4, "abi_minor must be the second field");
_Static_assert(offsetof(skh_skill, struct_size) == 8, "struct_size must be the third field");
_Static_assert(offsetof(skh_host, abi_major) == 0, "skh_host starts with its version");
_Static_assert(offsetof(skh_call, struct_size) == 0, "skh_call starts with its size");
_Static_assert(offsetof(skh_intent, struct_size) == 0, "skh_intent starts with its size");
