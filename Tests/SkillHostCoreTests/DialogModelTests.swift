import XCTest
@testable import SkillHostCore

/// The shipped dialog-act model (trained by `make train-dialog` on Data/dialog/corpus.jsonl) loads and
/// tells clear clauses apart in both languages, and it can only hold writes back, never unlock one.
final class DialogModelTests: XCTestCase {
    let guardTests = WriteGuardTests(name: "fixtures", testClosure: { _ in })

    static let clear: [(String, DialogModel.Label)] = [
        ("remind me to call the bank at 5", .command), ("set a reminder to buy bread tomorrow", .command),
        ("提醒我明天交电费", .command), ("帮我设个提醒，周五去取快递", .command),
        ("did I set a reminder to call the bank?", .question), ("is there a reminder about the bread", .question),
        ("我设过交电费的提醒吗？", .question), ("有没有取快递的提醒", .question),
        ("don't remind me to call the bank", .negated), ("no need to remind me to buy bread", .negated),
        ("不用提醒我交电费", .negated), ("别再提醒我取快递了", .negated),
        ("translate: remind me to call the bank", .quoted), ("she wrote \"remind me to buy bread\"", .quoted),
        ("翻译一下：提醒我交电费", .quoted), ("邮件里写着：提醒我取快递", .quoted),
        ("book a flight to Paris", .outOfScope), ("order a pizza to the office", .outOfScope),
        ("订一张去上海的机票", .outOfScope), ("帮我点个外卖送到公司", .outOfScope),
    ]

    func testShippedModelLoadsAndClassifiesClearClauses() {
        let model = DialogModel.shipped
        XCTAssertGreaterThan(model.weights.count, 1000, "the generated table should hold the trained features")
        XCTAssertEqual(model.labels, DialogModel.Label.allCases)
        var wrong: [String] = []
        for (text, want) in Self.clear {
            let got = model.classify(text)
            if got.label != want { wrong.append("\(text): want \(want), got \(got.label) (\(got.probability))") }
        }
        XCTAssertEqual(wrong, [], "the shipped model misreads these clear clauses")
    }

    func testFeaturesMatchTheTrainingScript() {
        // Same as scripts/train_dialog.py: lowercased, spaces collapsed, ^…$, scalars 1–3 at a time.
        XCTAssertEqual(DialogModel.features("Ab  c"), ["^", "a", "b", " ", "c", "$", "^a", "ab", "b ", " c", "c$", "^ab", "ab ", "b c", " c$"])
        XCTAssertEqual(DialogModel.features("提醒"), ["^", "提", "醒", "$", "^提", "提醒", "醒$", "^提醒", "提醒$"])
    }

    /// A model that calls everything a command, as sure as can be, changes nothing the rules refuse.
    func testTheModelCannotUnlockAWriteTheRulesBlock() {
        let alwaysCommand = DialogModel(table: "", labels: DialogModel.Label.allCases.map(\.rawValue), bias: [50, 0, 0, 0, 0])
        var wrote: [String] = []
        for text in WriteGuardTests.mustNotWrite where planned(text, model: alwaysCommand).contains("reminder.create") { wrote.append(text) }
        XCTAssertEqual(wrote, [], "a model that says “command” must not unlock these writes")
    }

    /// A model that is sure nothing is a command holds back every write, so the guard does ask it.
    func testTheModelHoldsBackWritesTheRulesAllow() {
        let neverCommand = DialogModel(table: "", labels: DialogModel.Label.allCases.map(\.rawValue), bias: [0, 50, 0, 0, 0])
        for text in WriteGuardTests.mustWrite {
            XCTAssertTrue(planned(text, model: .shipped).contains("reminder.create"), "\(text) should still write with the shipped model")
            XCTAssertFalse(planned(text, model: neverCommand).contains("reminder.create"), "\(text) should be held back")
        }
    }

    func planned(_ text: String, model: DialogModel) -> [String] {
        let request = guardTests.recognition.request(text)
        let raw = KeywordRecognizer().recognize(request, catalog: guardTests.recognition.catalog, defaults: [:])
        return WriteGuard.apply(raw, request: request, catalog: guardTests.recognition.catalog, minWriteConfidence: 0.8, dialogModel: model).intents.map(\.intent)
    }
}
