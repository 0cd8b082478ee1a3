import XCTest
@testable import SkillHostCore

/// The inputs `skillhost validate` sends to break an intent's input schema on purpose.
final class WrongInputsTests: XCTestCase {
    func generate(_ schema: String, base: String? = nil) -> [WrongInput] {
        WrongInputs.generate(schema: try! JSON.parse(Array(schema.utf8)), base: base.map { try! JSON.parse(Array($0.utf8)) })
    }

    func testEveryRuleOfTheSubsetGetsOneInputThatBreaksOnlyIt() throws {
        let schema = #"""
        {"type":"object","required":["from","days"],"additionalProperties":false,
         "properties":{"from":{"type":"string","format":"date"},"days":{"type":"integer","minimum":1,"maximum":16},
                       "unit":{"type":"string","enum":["C","F"]},"title":{"type":"string","minLength":2,"maxLength":5},
                       "at":{"type":"string","format":"date-time"},"tags":{"type":"array","minItems":1},
                       "ratio":{"type":"number","exclusiveMinimum":0,"exclusiveMaximum":1}}}
        """#
        let base = #"{"from":"2026-11-30","days":3}"#
        let inputs = generate(schema, base: base)
        XCTAssertEqual(inputs.map(\.kind), [
            .missingRequired,
            .wrongType, .badFormat,                           // from
            .wrongType, .belowMinimum, .aboveMaximum,         // days
            .wrongType, .notInEnum,                           // unit
            .wrongType, .tooShort, .tooLong,                  // title
            .wrongType, .badFormat,                           // at
            .wrongType, .tooFewItems,                         // tags
            .wrongType, .belowMinimum, .aboveMaximum,         // ratio
            .unknownProperty,
        ])
        XCTAssertEqual(inputs[0].input, .object(JSONObject()))
        XCTAssertEqual(inputs[4].input, ["from": "2026-11-30", "days": 0], "the rest of the base input stays valid")
        XCTAssertEqual(inputs[5].input, ["from": "2026-11-30", "days": 17])
        XCTAssertEqual(inputs[3].input, ["from": "2026-11-30", "days": "validate-wrong-type"], "a string where an integer is expected")
        XCTAssertEqual(inputs[1].input, ["from": 42, "days": 3], "a number where a string is expected, in place")
        XCTAssertEqual(inputs[10].input["title"], .string("xxxxxx"), "maxLength 5 + 1")
        XCTAssertEqual(inputs[16].input["ratio"], .int(0), "exclusiveMinimum itself")
        XCTAssertEqual(inputs.last?.input[WrongInputs.unknownPropertyName], .bool(true))
        let compiled = try JSONSchema(JSON.parse(Array(schema.utf8)))
        XCTAssertEqual(compiled.validate(try JSON.parse(Array(base.utf8))).count, 0)
        XCTAssertEqual(compiled.validate(inputs[0].input).count, 2, "{} misses both required fields")
        for i in inputs.dropFirst() {
            XCTAssertEqual(compiled.validate(i.input).count, 1, "\(i.label) breaks exactly one rule: \(compiled.validate(i.input))")
        }
    }

    func testLabelsNameTheFieldTheValueAndTheRule() {
        let inputs = generate(#"{"type":"object","properties":{"text":{"type":"string","maxLength":30}},"required":["text"]}"#)
        XCTAssertEqual(inputs.map(\.label), [
            #"{} (missing required "text")"#,
            #"field "text": 42 (expected a string)"#,
            #"field "text": "xxxxxxxxxxxx…" (31 characters) (maxLength 30)"#,
        ])
    }

    func testWithoutABaseEachInputHoldsOnlyTheFieldAtFault() {
        let inputs = generate(#"{"type":"object","properties":{"n":{"type":"integer","minimum":1}}}"#)
        XCTAssertEqual(inputs.map(\.input), [["n": "validate-wrong-type"], ["n": 0]])
    }

    func testASchemaThatRulesNothingOutGetsNoInputs() {
        XCTAssertEqual(generate(#"{"type":"object"}"#), [])
        XCTAssertEqual(generate(#"{"type":"object","properties":{"any":{"description":"anything goes"}}}"#), [])
        XCTAssertEqual(generate(##"{"type":"object","properties":{"x":{"$ref":"#/no"}}}"##), [], "a schema that does not compile")
    }

    func testInputsTheSchemaAcceptsAfterAllAreDropped() {
        // "v" may be a string or a number: no wrong-type input; anyOf lets a too-long string through.
        let inputs = generate(#"{"type":"object","properties":{"v":{"type":["string","number","integer","boolean","array","object","null"]},"w":{"anyOf":[{"type":"string","maxLength":2},{"type":"string"}],"maxLength":3}}}"#)
        XCTAssertEqual(inputs.map(\.kind), [.tooLong])
    }
}
