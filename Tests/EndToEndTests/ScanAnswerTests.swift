import Foundation
import XCTest

#if canImport(Glibc)
import Glibc
#endif

/// What the scan process answers for a file, end to end: JSON-text fields in every form a skill writes
/// them list exactly as the host's own parse of the text gives (pinned below, as the host printed them
/// before the scan process sent parsed values), a schema that is not JSON is refused word for word as
/// before, and a scan process that lies (a stand-in program given as SKILLHOST_SCAN) gets no bad
/// manifest registered.
final class ScanAnswerEndToEndTests: EndToEndTestCase {
    /// `schema_text_forms.so`'s manifest as the scan cache keeps it and `list --json` splices it.
    static let textFormsManifest = #"{"id":"test.fixture.textforms","name":"Text forms","version":"1.0.0","category":"testing","vendor":"skillhost tests","description":"Declares its JSON text in many forms.","abi":"1.3","abiRequired":"1.0","abiServed":"1.3","toolchain":null,"threadSafe":true,"hasHealth":false,"intents":[{"name":"fixture.text_forms","version":1,"address":"fixture.text_forms","description":"Schemas in every form.","inputSchema":{"type":"object","description":"a \"quoted\" \\ back/slash\nline é 😀 é","properties":{"n":{"type":"number","minimum":0,"maximum":100,"default":1.5},"tags":{"type":"array","items":{},"maxItems":3},"mode":{"enum":["a b",null,true,1]}},"required":[]},"outputSchema":true,"flags":["read-only"],"surfaces":["human","automation","agent"],"priority":0,"confidence":1,"keywords":{"en":["forms","text forms"],"fr":["formes","été"]},"examples":[{"lang":"en","text":"all forms","input":{"n":2.5,"tags":[]}}]}]}"#

    /// The scan cache's manifest texts: everything after the header and index lines.
    func cachedManifests() throws -> String {
        let data = try Data(contentsOf: URL(fileURLWithPath: home + "/.local/state/skillhost/scan-cache"))
        let lines = data.split(separator: 0x0a, maxSplits: 2, omittingEmptySubsequences: false)
        XCTAssertEqual(lines.count, 3, "header, index, manifests")
        return String(decoding: lines.count == 3 ? lines[2] : Data(), as: UTF8.self)
    }

    func testJSONTextInEveryFormListsAndIsCachedAsTheHostsParseOfTheText() throws {
        try addSkill("schema_text_forms.so")
        let r = skillhost("list", "--json")
        XCTAssertEqual(r.exitCode, 0, r.summary)
        let start = try XCTUnwrap(r.stdout.range(of: #"{"id":"test.fixture.textforms""#), r.summary)
        let end = try XCTUnwrap(r.stdout.range(of: #","path":"#, range: start.upperBound..<r.stdout.endIndex), r.summary)
        XCTAssertEqual(String(r.stdout[start.lowerBound..<end.lowerBound]) + "}", Self.textFormsManifest)
        XCTAssertEqual(try cachedManifests(), Self.textFormsManifest)
        // And it validates input against the schema it listed (the enum and maximum came through).
        _ = try assertInvokeOK(invoke("fixture.text_forms", #"{"n":100,"mode":"a b"}"#), skill: "test.fixture.textforms")
        _ = try assertInvokeError(invoke("fixture.text_forms", #"{"n":101}"#), kind: "invalid_input", exitCode: 10)
    }

    func testASchemaThatIsNotJSONIsRefusedWordForWordAsBefore() throws {
        let path = try addSkill("bad_schema.so")
        let list = try listAll()
        let refusal = try XCTUnwrap(list.refused.first("file", path), list.result.summary)
        XCTAssertEqual(refusal["message"] as? String,
                       #"bad manifest in ""# + path + #"" (skill "test.fixture.badschema"): intent "fixture.bad_schema": field "input_schema" is not valid JSON: invalid JSON at byte 17: expected a member name in quotes, found end of input in «{"type":"object",»"#)
    }

    /// A stand-in scan process (Python) that receives the files as the real one does and answers each
    /// with the skill its name picks, JSON-text fields as values: every forged field is checked as
    /// the text would be, a value nested past the limit makes the answer unreadable, and only the
    /// honest answer registers.
    func testAScanProcessThatSendsForgedValuesGetsNoBadManifestRegistered() throws {
        let script = work + "/fake-scan-process"
        try Self.fakeScanProcess.write(toFile: script, atomically: true, encoding: .utf8)
        chmod(script, 0o755)
        extraEnvironment["SKILLHOST_SCAN"] = script
        var paths: [String: String] = [:]
        for name in ["good", "objekt", "scalar", "example", "deep"] {
            paths[name] = try addSkill("echo_c.so", as: name + ".so")
        }
        let list = try listAll()
        XCTAssertEqual(list.skills.compactMap { $0["id"] as? String }, ["test.forged.good"], list.result.summary)
        let intent = try XCTUnwrap((list.skills.first?["intents"] as? [[String: Any]])?.first, list.result.summary)
        XCTAssertEqual((intent["inputSchema"] as? [String: Any])?["type"] as? String, "object", "the honest value is taken as sent")
        XCTAssertEqual(list.refused.count, 4, list.result.summary)
        let expected: [(String, String, [String])] = [
            ("objekt", "bad_manifest", [#"input_schema is not a valid JSON Schema"#, "objekt"]),
            ("scalar", "bad_manifest", [#"field "input_schema": expected JSON text"#]),
            ("example", "bad_manifest", [#"examples[0].input does not match input_schema"#]),
            ("deep", "load_failed", ["the scan process answered something unreadable"]),
        ]
        for (name, reason, parts) in expected {
            let r = try XCTUnwrap(list.refused.first("file", paths[name]!), "\(name): \(list.result.summary)")
            XCTAssertEqual(r["reason"] as? String, reason, "\(name): \(r)")
            for p in parts { XCTAssertTrue((r["message"] as? String ?? "").contains(p), "\(name) should say \(p): \(r)") }
        }
    }

    /// Receives messages of `COUNT` NUL, then per file `DEV:INO:SIZE:MTIME` NUL `PATH` NUL, with the
    /// files' descriptors, on fd 4 until the host closes it, then writes, on fd 3, a loaded line and
    /// an answer for each file, by its name.
    static let fakeScanProcess = #"""
        #!/usr/bin/env python3
        import json, os, socket
        s = socket.socket(fileno=4)
        paths = []
        while True:
            msg, anc, flags, addr = s.recvmsg(65536, socket.CMSG_SPACE(4 * 32))
            if not msg:
                break
            fields = msg.split(b"\0")
            paths += [fields[2 + 2 * k].decode() for k in range(int(fields[0]))]
        out = os.fdopen(3, "wb", buffering=0)
        deep = {"type": "object", "default": 1}
        inner = 1
        for _ in range(300):
            inner = [inner]
        deep["default"] = inner
        fields = {
            "good": {"inputSchema": {"type": "object", "properties": {"text": {"type": "string"}}}},
            "objekt": {"inputSchema": {"type": "objekt"}},
            "scalar": {"inputSchema": 5},
            "example": {"inputSchema": {"type": "object", "properties": {"n": {"type": "integer"}}},
                        "examples": [{"lang": "en", "text": "x", "input": {"n": "one"}}]},
            "deep": {"inputSchema": deep},
        }
        for p in paths:
            name = os.path.basename(p)[:-3]
            intent = {"structSize": 88, "flags": 1, "name": "forged.call", "description": "d"}
            intent.update(fields[name])
            skill = {"abiMajor": 1, "abiMinor": 0, "structSize": 120, "flags": 1, "id": "test.forged." + name,
                     "name": "Forged", "version": "1.0.0", "category": "testing", "vendor": "v", "description": "d",
                     "toolchain": None, "hasInvoke": True, "hasHealth": False, "intentCount": 1, "intents": [intent]}
            def line(o):
                out.write(json.dumps(o, separators=(",", ":"), ensure_ascii=False).encode() + b"\n")
            line({"file": p, "status": "loaded", "entry": "now"})
            line({"file": p, "status": "ok", "skill": skill})
        """#
}
