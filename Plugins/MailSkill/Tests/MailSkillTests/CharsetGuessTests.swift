import Foundation
import Glibc
import XCTest
@testable import MailCore

/// Raw 8-bit headers and bodies without a usable charset label (Tests/Fixtures, written by
/// make-fixtures.py), and forwarded messages (message/rfc822) opened as attachments.
final class CharsetGuessTests: XCTestCase {
    static let fixtures = Fixtures.packageRoot + "/Tests/Fixtures"

    func fixture(_ name: String) throws -> MailMessage {
        try MailMessage.parse(Array(try Data(contentsOf: URL(fileURLWithPath: Self.fixtures + "/" + name))))
    }

    /// `text` in `charset`, by glibc iconv (the test's own encoder, independent of what is tested).
    func encode(_ text: String, _ charset: String) -> [UInt8] {
        let cd = iconv_open(charset, "UTF-8")
        precondition(cd != iconv_t(bitPattern: -1), "iconv does not know \(charset)")
        defer { iconv_close(cd) }
        var input = Array(text.utf8)
        var output = [UInt8](repeating: 0, count: input.count * 4 + 16)
        let produced = input.withUnsafeMutableBufferPointer { inBuf in
            output.withUnsafeMutableBufferPointer { outBuf -> Int in
                var inPtr: UnsafeMutablePointer<CChar>? = UnsafeMutableRawPointer(inBuf.baseAddress!).assumingMemoryBound(to: CChar.self)
                var outPtr: UnsafeMutablePointer<CChar>? = UnsafeMutableRawPointer(outBuf.baseAddress!).assumingMemoryBound(to: CChar.self)
                var inLeft = inBuf.count, outLeft = outBuf.count
                precondition(iconv(cd, &inPtr, &inLeft, &outPtr, &outLeft) != -1, "\(text) is not encodable in \(charset)")
                return outBuf.count - outLeft
            }
        }
        return Array(output[0..<produced])
    }

    // MARK: the guess itself

    func testValidUTF8IsNeverGuessed() {
        XCTAssertEqual(CharsetGuess.guess(Array("会议 Café".utf8)), CharsetGuess.Guess(text: "会议 Café", charset: "UTF-8", guessed: false))
        XCTAssertEqual(CharsetGuess.guess(Array("plain".utf8)).guessed, false)
    }

    func testChineseInGBKAndBig5AndJapaneseAndKoreanAndLatin1() throws {
        func guess(_ text: String, _ charset: String) -> CharsetGuess.Guess { CharsetGuess.guess(encode(text, charset)) }
        let (gbk, big5, euckr) = ("GBK", "BIG5", "EUC-KR")
        XCTAssertEqual(guess("关于下周项目会议的通知", gbk), CharsetGuess.Guess(text: "关于下周项目会议的通知", charset: "GB18030", guessed: true))
        XCTAssertEqual(guess("請確認本週的會議時間", big5), CharsetGuess.Guess(text: "請確認本週的會議時間", charset: "BIG5", guessed: true))
        XCTAssertEqual(guess("会議の資料をお送りします", "SHIFT_JIS").charset, "SHIFT_JIS")
        XCTAssertEqual(guess("회의 자료를 보내 드립니다. 이번 주에 확인해 주세요.", euckr).charset, "EUC-KR")
        XCTAssertEqual(guess("Renée: café à côté?", "ISO-8859-1"), CharsetGuess.Guess(text: "Renée: café à côté?", charset: "WINDOWS-1252", guessed: true))
        // Short and mixed with ASCII, as subjects are.
        XCTAssertEqual(guess("Re: 发票 2026-11", gbk).text, "Re: 发票 2026-11")
        XCTAssertEqual(guess("回覆: 會議", big5).text, "回覆: 會議")
    }

    func testTheDeclaredCharsetIsTheHint() {
        // Two GBK bytes that are also valid Big5 and valid EUC-KR: the hint decides.
        let bytes: [UInt8] = [0xB7, 0xA2, 0xC6, 0xB1]   // 发票 in GBK
        XCTAssertEqual(CharsetGuess.guess(bytes, hint: "gbk").text, "发票")
        XCTAssertEqual(CharsetGuess.guess(bytes, hint: "gb2312").charset, "GB18030")
    }

    func testBytesNothingExplainsFallBackToWindows1252() {
        let g = CharsetGuess.guess([0x81, 0x8D, 0x8F, 0x90, 0x9D])
        XCTAssertEqual(g.charset, "WINDOWS-1252")
        XCTAssertTrue(g.guessed)
    }

    // MARK: messages from the fixtures

    func testRawGBKSubjectFromAndUnlabelledBody() throws {
        let m = try fixture("raw-gbk.eml")
        XCTAssertEqual(m.subject, "关于下周项目会议的通知")
        XCTAssertEqual(m.from, MailAddress(name: "张伟", address: "zhang.wei@example.cn"))
        XCTAssertEqual(m.text, "王芳你好，\n\n下周一上午十点在三楼会议室开项目会议，请准时参加。\n\n张伟\n")
        XCTAssertEqual(m.problems, ["From: raw 8-bit bytes read as GB18030 (guessed)",
                                    "Subject: raw 8-bit bytes read as GB18030 (guessed)",
                                    "text/plain part: 8-bit bytes without a charset label read as GB18030 (guessed)"])
    }

    func testRawBig5SubjectAndBodyLabelledUSASCII() throws {
        let m = try fixture("raw-big5.eml")
        XCTAssertEqual(m.subject, "請確認本週的會議時間")
        XCTAssertEqual(m.from?.name, "陳美玲")
        XCTAssertEqual(m.text, "您好：\n\n請確認本週四下午的會議時間，謝謝。\n\n陳美玲\n")
        XCTAssertEqual(m.problems, ["From: raw 8-bit bytes read as BIG5 (guessed)",
                                    "Subject: raw 8-bit bytes read as BIG5 (guessed)",
                                    "text/plain part: 8-bit bytes labelled US-ASCII read as BIG5 (guessed)"])
    }

    func testABodyLabelHelpsTheRawSubject() throws {
        let m = try fixture("raw-gbk-hinted.eml")
        XCTAssertEqual(m.subject, "发票已开")
        XCTAssertEqual(m.text, "发票已经开好了，请查收附件。\n")
        XCTAssertEqual(m.problems, ["Subject: raw 8-bit bytes read as GB18030 (guessed)"], "the body's label was right")
    }

    func testGBKBodyLabelledLatin1IsRecognised() throws {
        let m = try fixture("gbk-labelled-latin1.eml")
        XCTAssertEqual(m.text, "您的发票已经开具，金额为人民币一千元。请在本月底前付款。\n")
        XCTAssertEqual(m.problems, ["text/plain part: bytes labelled iso-8859-1 read as GB18030 (guessed)"])
    }

    func testRealLatin1StaysLatin1() throws {
        let m = try fixture("raw-latin1.eml")
        XCTAssertEqual(m.subject, "Café à côté demain?")
        XCTAssertEqual(m.from?.name, "Renée Dubois")
        XCTAssertEqual(m.text, "On se retrouve au café à côté du bureau, à midi?\nRenée\n")
        XCTAssertEqual(m.problems, ["From: raw 8-bit bytes read as WINDOWS-1252 (guessed)",
                                    "Subject: raw 8-bit bytes read as WINDOWS-1252 (guessed)",
                                    "text/plain part: 8-bit bytes without a charset label read as WINDOWS-1252 (guessed)"])
    }

    func testRawShiftJIS() throws {
        let m = try fixture("raw-shift-jis.eml")
        XCTAssertEqual(m.subject, "会議の資料をお送りします")
        XCTAssertEqual(m.text, "佐藤です。明日の会議の資料をお送りします。よろしくお願いします。\n")
    }

    func testCorrectlyLabelledLatin1BodyIsNotSecondGuessed() throws {
        let m = try Fixtures.message("From: a@example.org\nSubject: x\nContent-Type: text/plain; charset=iso-8859-1\nContent-Transfer-Encoding: quoted-printable\n\nCaf=E9 cr=E8me br=FBl=E9e\n")
        XCTAssertEqual(m.text, "Café crème brûlée\n")
        XCTAssertEqual(m.problems, [])
    }

    // MARK: forwarded messages

    func testForwardedMessagesAreOpenedTwoLevelsDeep() throws {
        let m = try fixture("forwarded.eml")
        XCTAssertEqual(m.subject, "Fwd: Fwd: budget")
        XCTAssertEqual(m.text, "Forwarding the thread, see attached.", "the line break before a delimiter is the delimiter's")
        XCTAssertEqual(m.problems, [])
        XCTAssertEqual(m.attachments.count, 1)
        let first = try XCTUnwrap(m.attachments.first)
        XCTAssertEqual(first.contentType, "message/rfc822")
        let middle = try XCTUnwrap(first.message)
        XCTAssertEqual(middle.from, MailAddress(name: "Zhang Wei", address: "zhang.wei@example.cn"))
        XCTAssertEqual(middle.subject, "Fwd: 预算草案")
        XCTAssertEqual(middle.date?.rfc3339, "2026-11-23T18:00:00+08:00")
        XCTAssertEqual(middle.text, "See Li Na's draft below.")
        XCTAssertEqual(middle.attachments.first?.filename, "budget.eml")
        let inner = try XCTUnwrap(middle.attachments.first?.message)
        XCTAssertEqual(inner.from, MailAddress(name: "李娜", address: "li.na@example.cn"))
        XCTAssertEqual(inner.subject, "预算草案")
        XCTAssertEqual(inner.text, "Budget draft attached in the shared folder. 请审阅。")
        XCTAssertEqual(inner.attachments, [])
    }

    func testForwardingDeeperThanTheLimitIsReportedNotOpened() throws {
        var message = "From: z@example.org\nSubject: level 5\n\nbottom\n"
        for level in (1...4).reversed() {
            message = "From: l\(level)@example.org\nSubject: level \(level)\nMIME-Version: 1.0\nContent-Type: message/rfc822\n\n" + message
        }
        let m = try Fixtures.message(message)
        var depth = 0
        var current = m.attachments.first
        while let attachment = current, let inner = attachment.message {
            depth += 1
            current = inner.attachments.first
        }
        XCTAssertEqual(depth, MailMessage.maxForwardDepth)
        XCTAssertEqual(m.problems, ["attached message: attached message: attached message: attached message nested deeper than 3 levels is not opened"])
    }

    func testAnUnreadableAttachedMessageIsAProblem() throws {
        let m = try Fixtures.message("From: a@example.org\nSubject: x\nContent-Type: message/rfc822\n\n\n\n")
        XCTAssertNil(m.attachments.first?.message)
        XCTAssertEqual(m.problems.count, 1)
        XCTAssertTrue(m.problems[0].hasPrefix("attached message (2 bytes) is not readable: empty file"), "\(m.problems)")
    }
}
