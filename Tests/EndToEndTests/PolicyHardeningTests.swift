import Foundation
import XCTest

/// Issue 12, items 3 and 4: a rate limit on an intent name covers every version of it, and the audit
/// log redacts secrets wherever the schema declares them.
final class PolicyHardeningTests: EndToEndTestCase {
    func testARateLimitOnANameCoversEveryVersionOfTheIntent() throws {
        try addSkill("intent_versions.so")
        try writeConfig(#"{"policy":{"rateLimits":{"automation":{"fixture.greet":{"capacity":2,"refillPerSecond":0.001}}}}}"#)
        let calls: [(String, String)] = [("fixture.greet@1", #"{"name":"a"}"#), ("fixture.greet@2", #"{"first":"a","last":"b"}"#),
                                         ("fixture.greet@1", #"{"name":"a"}"#), ("fixture.greet", #"{"first":"a","last":"b"}"#)]
        let results = calls.map { invoke($0.0, $0.1) }
        XCTAssertEqual(results.map(\.exitCode), [0, 0, 15, 15], results.map(\.summary).joined(separator: "\n"))
        let e = try assertInvokeError(results[3], kind: "denied", exitCode: 15)
        XCTAssertEqual(e["rule"] as? String, "policy.rateLimits.automation.fixture.greet")
    }

    func testSecretsInsideAllOfAnyOfAdditionalPropertiesAndItemsAreRedacted() throws {
        try addSkill("secret_nested.so")
        let input = #"{"user":"ada","password":"pw-allOf","token":"tk-anyOf","headers":{"Authorization":"hdr-additional"},"keys":["key-items"]}"#
        try assertInvokeOK(invoke("fixture.secrets", input), skill: "test.fixture.secrets")
        let raw = try String(contentsOfFile: home + "/.local/state/skillhost/audit.jsonl", encoding: .utf8)
        for secret in ["pw-allOf", "tk-anyOf", "hdr-additional", "key-items"] {
            XCTAssertFalse(raw.contains(secret), "\(secret) reached the audit log: \(raw)")
        }
        let line = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(raw.split(separator: "\n").last!.utf8)) as? [String: Any])
        let logged = try XCTUnwrap(line["input"] as? [String: Any], raw)
        XCTAssertEqual(logged["user"] as? String, "ada", "what is not secret stays")
        XCTAssertEqual(logged["password"] as? String, "[redacted]")
        XCTAssertEqual(logged["token"] as? String, "[redacted]")
        XCTAssertEqual(logged["headers"] as? [String: String], ["Authorization": "[redacted]"])
        XCTAssertEqual(logged["keys"] as? [String], ["[redacted]"])
    }
}
