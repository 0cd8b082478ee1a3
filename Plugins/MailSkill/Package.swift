// swift-tools-version:6.0
import PackageDescription

// The mail-triage skill, shipped the way a team outside this repository ships a skill: its own package,
// depending on the SDK (SkillKit) only. Here the SDK comes by path from the repository root; an outside
// team writes `.package(url: "https://…/skillhost", from: "1.0.0")` instead and changes nothing else.
//
//   swift build -c release --package-path Plugins/MailSkill   →  .build/release/libMailSkill.so
//   swift test --package-path Plugins/MailSkill --disable-swift-testing
let package = Package(
    name: "MailSkill",
    products: [
        // The .so the host loads: MailSkill (the SkillKit face) with MailCore and SkillKit linked in.
        .library(name: "MailSkill", type: .dynamic, targets: ["MailSkill"]),
    ],
    dependencies: [
        .package(name: "skillhost", path: "../.."),
    ],
    targets: [
        // RFC 5322/2047/2045 parsing, charsets, iCalendar invitations, Maildir/mbox readers, the
        // classifier and the to-do extractor. No SkillKit: testable and reusable on its own.
        .target(name: "MailCore"),
        // The skill: intents, schemas, input/config handling, JSON results; exports skillhost_entry.
        .target(name: "MailSkill", dependencies: ["MailCore", .product(name: "SkillKit", package: "skillhost")]),
        .testTarget(name: "MailSkillTests", dependencies: ["MailCore", "MailSkill"]),
    ]
)
