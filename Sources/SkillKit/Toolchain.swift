/// The compiler that built this skill, as `"swift-MAJOR.MINOR"` — recorded in `skh_skill.toolchain`.
///
/// Swift has no stable ABI on Linux: the host refuses a Swift skill built by another Swift version than
/// its own, so this string must be exact. A compiler newer than the top of this chain reports
/// `"swift-unknown"`, which every host refuses (safe) until a line is added here.
#if compiler(>=6.6)
#warning("SkillKit/Toolchain.swift does not know this compiler; add it to the chain")
let skillToolchain = "swift-unknown"
#elseif compiler(>=6.5)
let skillToolchain = "swift-6.5"
#elseif compiler(>=6.4)
let skillToolchain = "swift-6.4"
#elseif compiler(>=6.3)
let skillToolchain = "swift-6.3"
#elseif compiler(>=6.2)
let skillToolchain = "swift-6.2"
#elseif compiler(>=6.1)
let skillToolchain = "swift-6.1"
#elseif compiler(>=6.0)
let skillToolchain = "swift-6.0"
#else
#error("SkillKit needs Swift 6.0 or later")
#endif
