import XCTest
@testable import MailCore

/// RFC 2047 encoded words, RFC 2045 transfer encodings, charsets.
final class EncodingTests: XCTestCase {
    // MARK: Encoded words

    func testBase64WordInGB2312AndGBK() {
        XCTAssertEqual(EncodedWords.decode("=?GB2312?B?u+HS6dH7x+ujug==?=").text, "会议邀请：")
        XCTAssertEqual(EncodedWords.decode("=?gbk?b?us/NrLXEysI=?=").text, "合同的事")
    }

    func testQWordWithUnderscoreAndHexInLatin1() {
        XCTAssertEqual(EncodedWords.decode("=?ISO-8859-1?Q?Ren=E9e_Dubois?=").text, "Renée Dubois")
    }

    func testWhitespaceBetweenAdjacentWordsIsDroppedIncludingAFold() {
        XCTAssertEqual(EncodedWords.decode("=?ISO-8859-1?Q?Caf=E9?= =?ISO-8859-1?Q?_tomorrow=3F?=").text, "Café tomorrow?")
        // A folded header unfolds to "\r\n " → " " between the words: still adjacent.
        XCTAssertEqual(EncodedWords.decode("=?GB2312?B?u+HS6dH7x+ujug==?= \t =?GB2312?B?MjAyN8TqsvrGt7nmu67GwMnz?=").text,
                       "会议邀请：2027年产品规划评审")
    }

    func testWhitespaceBetweenAWordAndTextIsKept() {
        XCTAssertEqual(EncodedWords.decode("Re: =?UTF-8?B?5L2g5aW9?= again").text, "Re: 你好 again")
        XCTAssertEqual(EncodedWords.decode("=?UTF-8?Q?a?= b =?UTF-8?Q?c?=").text, "a b c")
    }

    func testAMultibyteCharacterSplitAcrossTwoWordsStillDecodes() {
        // "邀请" in GBK is D1 FB C7 EB; the first word ends after D1 FB C7, the second starts with EB.
        let first = "=?GBK?B?" + Data([0xD1, 0xFB, 0xC7]).base64EncodedString() + "?="
        let second = "=?GBK?B?" + Data([0xEB]).base64EncodedString() + "?="
        XCTAssertEqual(EncodedWords.decode(first + " " + second).text, "邀请")
    }

    func testLanguageSuffixAndLowercaseEncodingLetter() {
        XCTAssertEqual(EncodedWords.decode("=?utf-8*en?q?hello_world?=").text, "hello world")
    }

    func testMalformedWordsStayLiteral() {
        for text in ["=?UTF-8?X?abc?=", "=?UTF-8?Q?no end", "=??Q?abc?=", "=?UTF-8?Q?sp ace?=", "a =? b"] {
            XCTAssertEqual(EncodedWords.decode(text).text, text)
        }
    }

    func testUnknownCharsetIsReportedNotThrown() {
        let d = EncodedWords.decode("=?x-klingon?Q?Qapla=27?=")
        XCTAssertEqual(d.text, "Qapla'")
        XCTAssertEqual(d.problems.count, 1)
        XCTAssertTrue(d.problems[0].contains("x-klingon"), d.problems[0])
    }

    // MARK: Charsets

    func testIconvKnowsGBK() {
        XCTAssertTrue(Charsets.isSupported("GBK"))
        XCTAssertTrue(Charsets.isSupported("gb2312"))
        XCTAssertTrue(Charsets.isSupported("GB18030"))
        XCTAssertTrue(Charsets.isSupported("windows-1252"))
        XCTAssertFalse(Charsets.isSupported("x-klingon"))
    }

    func testGBKTextDecodesAndInvalidBytesAreCounted() {
        XCTAssertEqual(Charsets.decode([0xCD, 0xF5, 0xB7, 0xBC], charset: "gb2312"), Charsets.Decoded(text: "王芳", problem: nil))
        let bad = Charsets.decode([0xCD, 0xF5, 0xFF, 0x41], charset: "GBK")
        XCTAssertTrue(bad.text.hasPrefix("王"), bad.text)
        XCTAssertTrue(bad.text.hasSuffix("A"), bad.text)
        XCTAssertNotNil(bad.problem)
    }

    func testNativeCharsets() {
        XCTAssertEqual(Charsets.decode([0x43, 0x61, 0x66, 0xE9], charset: "ISO-8859-1").text, "Café")
        XCTAssertEqual(Charsets.decode(Array("Zażółć".utf8), charset: "\"UTF-8\"").text, "Zażółć")
        XCTAssertEqual(Charsets.decode(Array("plain".utf8), charset: nil), Charsets.Decoded(text: "plain", problem: nil))
        let latin = Charsets.decode([0x43, 0x61, 0x66, 0xE9], charset: "us-ascii")
        XCTAssertEqual(latin.text, "Café")
        XCTAssertNotNil(latin.problem, "8-bit bytes in US-ASCII are reported")
        XCTAssertNotNil(Charsets.decode([0xC3, 0x28], charset: "utf-8").problem)
    }

    // MARK: Transfer encodings

    func testQuotedPrintableSoftBreaksWithLFAndCRLF() {
        let lf = "Could you please send me the slides by =\nFriday? =E2=80=94 ok\n"
        XCTAssertEqual(String(decoding: TransferEncoding.quotedPrintable(Array(lf.utf8)[...]), as: UTF8.self),
                       "Could you please send me the slides by Friday? — ok\n")
        let crlf = "Wis=C5=82a=\r\n, 3rd floor\r\nnext"
        XCTAssertEqual(String(decoding: TransferEncoding.quotedPrintable(Array(crlf.utf8)[...]), as: UTF8.self),
                       "Wisła, 3rd floor\nnext")
    }

    func testQuotedPrintableDropsTrailingBlanksAndKeepsBadEscapes() {
        let text = "trailing   \n=ZZ and =4 and 100%=\n"
        XCTAssertEqual(String(decoding: TransferEncoding.quotedPrintable(Array(text.utf8)[...]), as: UTF8.self),
                       "trailing\n=ZZ and =4 and 100%")
    }

    func testBase64IgnoresLineBreaksAndToleratesMissingPadding() {
        XCTAssertEqual(TransferEncoding.base64(Array("5L2g\r\n5aW9".utf8)), Array("你好".utf8))
        XCTAssertEqual(TransferEncoding.base64(Array("YWI".utf8)), Array("ab".utf8))
        XCTAssertEqual(TransferEncoding.base64(Array("YQ==garbage".utf8)), Array("a".utf8))
        XCTAssertEqual(TransferEncoding.base64(Array("!!!".utf8)), [])
    }

    func testUnknownTransferEncodingIsReported() {
        let d = TransferEncoding.decode(Array("begin 644 x".utf8)[...], encoding: "x-uuencode")
        XCTAssertEqual(d.bytes, Array("begin 644 x".utf8))
        XCTAssertNotNil(d.problem)
    }
}
