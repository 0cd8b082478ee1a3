import XCTest
@testable import SkillHostCore

final class JSONSchemaTests: XCTestCase {
    let range = try! JSONSchema(JSON.parse(#"""
    {"type":"object","additionalProperties":false,"required":["from","to"],
     "properties":{"from":{"type":"string","format":"date"},"to":{"type":"string","format":"date"},
                   "days":{"type":"integer","minimum":1,"maximum":16},
                   "unit":{"enum":["C","F"]},"title":{"type":"string","minLength":1,"maxLength":5},
                   "tags":{"type":"array","items":{"type":"string"},"maxItems":2},
                   "at":{"type":"string","format":"date-time"}}}
    """#))

    func violations(_ text: String) -> [String] {
        range.validate(try! JSON.parse(text)).map(\.description)
    }

    func testAcceptsAValidObject() {
        XCTAssertEqual(violations(#"{"from":"2026-11-30","to":"2026-12-01","days":3,"unit":"C","tags":["a"],"at":"2026-11-30T15:00:00+08:00"}"#), [])
    }

    func testNamesAMissingRequiredField() {
        XCTAssertEqual(violations(#"{"from":"2026-11-30"}"#), [#"missing required field "to""#])
    }

    func testNamesTheFieldExpectedTypeAndFoundValue() {
        XCTAssertEqual(violations(#"{"from":20261130,"to":"2026-11-30"}"#), [#"field "from": expected a string, found 20261130"#])
    }

    func testChecksBoundsEnumsLengthsAndFormats() {
        XCTAssertEqual(violations(#"{"from":"2026-02-30","to":"2026-11-30"}"#), [#"field "from": expected a date YYYY-MM-DD, found "2026-02-30""#])
        XCTAssertEqual(violations(#"{"from":"2026-11-30","to":"2026-11-30","days":17}"#), [#"field "days": expected a number ≤ 16, found 17"#])
        XCTAssertEqual(violations(#"{"from":"2026-11-30","to":"2026-11-30","unit":"K"}"#), [#"field "unit": expected one of "C", "F", found "K""#])
        XCTAssertEqual(violations(#"{"from":"2026-11-30","to":"2026-11-30","title":""}"#), [#"field "title": expected at least 1 characters, found 0"#])
        XCTAssertEqual(violations(#"{"from":"2026-11-30","to":"2026-11-30","tags":[1]}"#), [#"field "tags[0]": expected a string, found 1"#])
        XCTAssertEqual(violations(#"{"from":"2026-11-30","to":"2026-11-30","at":"tomorrow"}"#).count, 1)
    }

    func testRefusesUnknownFieldsWhenAdditionalPropertiesIsFalse() {
        XCTAssertEqual(violations(#"{"from":"2026-11-30","to":"2026-11-30","form":1}"#).first?.hasPrefix(#"field "form": unknown field"#), true)
    }

    func testIntegerAcceptsWholeRealsButNotFractions() throws {
        let s = try JSONSchema(JSON.parse(#"{"type":"integer"}"#))
        XCTAssertTrue(s.validate(.double(5.0)).isEmpty)
        XCTAssertFalse(s.validate(.double(5.5)).isEmpty)
    }

    func testCompileErrorsNameTheKeyword() {
        XCTAssertThrowsError(try JSONSchema(JSON.parse(#"{"type":"objekt"}"#))) { e in
            XCTAssertEqual("\(e)".hasPrefix("at type: unknown type \"objekt\""), true, "\(e)")
        }
        XCTAssertThrowsError(try JSONSchema(JSON.parse(##"{"type":"object","properties":{"a":{"$ref":"#/x"}}}"##))) { e in
            XCTAssertTrue("\(e)".contains("properties.a.$ref"), "\(e)")
        }
        XCTAssertThrowsError(try JSONSchema(JSON.parse(#"{"required":"a"}"#)))
    }

    func testAnyOfAndOneOf() throws {
        let s = try JSONSchema(JSON.parse(#"{"anyOf":[{"required":["place"]},{"required":["latitude","longitude"]}]}"#))
        XCTAssertTrue(s.validate(try JSON.parse(#"{"place":"home"}"#)).isEmpty)
        XCTAssertEqual(s.validate(try JSON.parse(#"{"latitude":1}"#)).count, 1)
    }
}
