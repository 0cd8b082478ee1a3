#!/usr/bin/env python3
"""Writes the mail skill's sample mailbox: Samples/Maildir/{cur,new,tmp} and Samples/archive.mbox.

The generated files are committed, so the tests never need Python; run this again only to change them:

    python3 Plugins/MailSkill/Samples/make-samples.py

Every message is written byte by byte (no email.generator), so the output does not depend on the
Python version: RFC 5322 headers, RFC 2047 encoded words (B and Q, UTF-8, GB2312, GBK, ISO-8859-1),
MIME multipart with base64, quoted-printable, 7bit and 8bit parts, a PDF attachment and two
text/calendar invitations. The mailbox belongs to Ada Wang (王芳) <ada@example.com>; all dates are in
late November 2026.
"""
import base64
import datetime
import os
import quopri
import shutil

HERE = os.path.dirname(os.path.abspath(__file__))
USER = "Ada Wang <ada@example.com>"


def b64(data: bytes) -> str:
    """base64 in 76-character lines (RFC 2045)."""
    text = base64.b64encode(data).decode("ascii")
    return "\n".join(text[i:i + 76] for i in range(0, len(text), 76))


def qp(text: str, charset: str) -> str:
    """Quoted-printable body (soft line breaks at 76 characters)."""
    return quopri.encodestring(text.encode(charset)).decode("ascii")


def word_b(text: str, charset: str) -> str:
    """One RFC 2047 encoded word, B encoding."""
    return "=?%s?B?%s?=" % (charset, base64.b64encode(text.encode(charset)).decode("ascii"))


def word_q(text: str, charset: str) -> str:
    """One RFC 2047 encoded word, Q encoding (spaces as '_')."""
    out = []
    for byte in text.encode(charset):
        c = chr(byte)
        if c == " ":
            out.append("_")
        elif c.isascii() and (c.isalnum() or c in "!*+-/"):
            out.append(c)
        else:
            out.append("=%02X" % byte)
    return "=?%s?Q?%s?=" % (charset, "".join(out))


def timestamp(date_header: str) -> int:
    return int(datetime.datetime.strptime(date_header, "%a, %d %b %Y %H:%M:%S %z").timestamp())


def message(headers, body: str, eol: str = "\n", charset: str = "ascii") -> bytes:
    """Header lines (already encoded, folded with '\n ') + blank line + body, with `eol` line ends."""
    text = "\n".join(headers) + "\n\n" + body
    if not text.endswith("\n"):
        text += "\n"
    return text.replace("\n", eol).encode(charset)


# --- Maildir messages ---------------------------------------------------------------------------

PDF = (b"%PDF-1.4\n1 0 obj <</Type /Catalog /Pages 2 0 R>> endobj\n"
       b"2 0 obj <</Type /Pages /Kids [3 0 R] /Count 1>> endobj\n"
       b"3 0 obj <</Type /Page /Parent 2 0 R /MediaBox [0 0 595 842]>> endobj\n"
       b"trailer <</Root 1 0 R>>\n%%EOF\n")


def invoice_en():
    date = "Thu, 26 Nov 2026 09:00:00 +0100"
    body = f"""This is a multi-part message in MIME format.

--=_acme_1142
Content-Type: text/plain; charset=us-ascii
Content-Transfer-Encoding: 7bit

Dear customer,

your invoice INV-2026-1142 for November 2026 is attached.

Amount due: EUR 240.00
Due date: 10 December 2026

You can pay online at https://acme-hosting.example/pay or by bank transfer.

Thank you for your business,
Acme Hosting Billing

--=_acme_1142
Content-Type: application/pdf; name="invoice-INV-2026-1142.pdf"
Content-Disposition: attachment; filename="invoice-INV-2026-1142.pdf"
Content-Transfer-Encoding: base64

{b64(PDF)}
--=_acme_1142--
"""
    headers = [
        "Return-Path: <billing@acme-hosting.example>",
        'From: "Acme Hosting Billing" <billing@acme-hosting.example>',
        f"To: {USER}",
        "Subject: Invoice INV-2026-1142 for November 2026",
        f"Date: {date}",
        "Message-ID: <inv-2026-1142@acme-hosting.example>",
        "MIME-Version: 1.0",
        'Content-Type: multipart/mixed; boundary="=_acme_1142"',
    ]
    return date, message(headers, body)


def meeting_en():
    """Outlook-style: CRLF line ends, multipart/mixed > multipart/alternative + text/calendar."""
    date = "Tue, 24 Nov 2026 16:12:00 +0100"
    ics = "\n".join([
        "BEGIN:VCALENDAR",
        "PRODID:-//Example Corp//Calendar 1.0//EN",
        "VERSION:2.0",
        "METHOD:REQUEST",
        "BEGIN:VTIMEZONE",
        "TZID:Europe/Warsaw",
        "BEGIN:STANDARD",
        "DTSTART:19701025T030000",
        "TZOFFSETFROM:+0200",
        "TZOFFSETTO:+0100",
        "RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU",
        "END:STANDARD",
        "BEGIN:DAYLIGHT",
        "DTSTART:19700329T020000",
        "TZOFFSETFROM:+0100",
        "TZOFFSETTO:+0200",
        "RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU",
        "END:DAYLIGHT",
        "END:VTIMEZONE",
        "BEGIN:VEVENT",
        "UID:q1-planning-2026@example.com",
        "DTSTAMP:20261124T151200Z",
        "ORGANIZER;CN=Marta Nowak:mailto:marta.nowak@example.com",
        "ATTENDEE;CN=Ada Wang;ROLE=REQ-PARTICIPANT;PARTSTAT=NEEDS-ACTION;RSVP=TRUE:mailto:ada@example.com",
        "SUMMARY:Q1 planning",
        "DTSTART;TZID=Europe/Warsaw:20261202T100000",
        "DTEND;TZID=Europe/Warsaw:20261202T113000",
        "LOCATION:Room Wisła\\, 3rd floor",
        "DESCRIPTION:Roadmap and hiring for Q1.\\nPlease bring your team's estimates.",
        "END:VEVENT",
        "END:VCALENDAR",
    ]) + "\n"
    plain = """Marta Nowak has invited you to Q1 planning.

When: Wednesday, 2 December 2026, 10:00–11:30 (Europe/Warsaw)
Where: Room Wisła, 3rd floor

Roadmap and hiring for Q1. Please bring your team's estimates.
"""
    html = """<html><body><p>Marta Nowak has invited you to <b>Q1 planning</b>.</p>
<p>When: Wednesday, 2 December 2026, 10:00&ndash;11:30 (Europe/Warsaw)<br>Where: Room Wisła, 3rd floor</p>
<p>Roadmap and hiring for Q1. Please bring your team's estimates.</p></body></html>
"""
    calendar = b64(ics.replace("\n", "\r\n").encode("utf-8"))
    body = f"""--outer-7f3a
Content-Type: multipart/alternative; boundary="alt-7f3a"

--alt-7f3a
Content-Type: text/plain; charset="utf-8"
Content-Transfer-Encoding: quoted-printable

{qp(plain, "utf-8")}
--alt-7f3a
Content-Type: text/html; charset="utf-8"
Content-Transfer-Encoding: quoted-printable

{qp(html, "utf-8")}
--alt-7f3a--

--outer-7f3a
Content-Type: text/calendar; charset="utf-8"; method=REQUEST
Content-Transfer-Encoding: base64

{calendar}
--outer-7f3a--
"""
    headers = [
        'From: "Marta Nowak" <marta.nowak@example.com>',
        f"To: {USER}",
        "Subject: Invitation: Q1 planning @ Wed Dec 2, 2026 10:00 - 11:30",
        " (Europe/Warsaw)",
        f"Date: {date}",
        "Message-ID: <q1-planning-2026.invite@example.com>",
        "MIME-Version: 1.0",
        'Content-Type: multipart/mixed; boundary="outer-7f3a"',
    ]
    return date, message(headers, body, eol="\r\n")


def newsletter():
    date = "Mon, 23 Nov 2026 07:30:00 +0000"
    text = """Swift Weekly — issue #312

Swift 6.3 is out, with faster builds and a new `@c` attribute. We’ve collected the best talks from this month’s server-side Swift meetups, and a long read about typed throws in practice.

Please share this issue with a friend who writes Swift!

You receive this email because you subscribed at swiftweekly.example.
"""
    html = """<html><body><h1>Swift Weekly &mdash; issue #312</h1>
<p>Swift 6.3 is out, with faster builds and a new <code>@c</code> attribute.</p>
<p>Please share this issue with a friend who writes Swift!</p></body></html>
"""
    body = f"""--nl312
Content-Type: text/plain; charset=UTF-8
Content-Transfer-Encoding: quoted-printable

{qp(text, "utf-8")}
--nl312
Content-Type: text/html; charset=UTF-8
Content-Transfer-Encoding: quoted-printable

{qp(html, "utf-8")}
--nl312--
"""
    headers = [
        'From: "Swift Weekly" <newsletter@swiftweekly.example>',
        f"To: {USER}",
        "Subject: Swift Weekly #312: Swift 6.3 released",
        f"Date: {date}",
        "Message-ID: <issue-312.ada@swiftweekly.example>",
        "List-Id: Swift Weekly <weekly.swiftweekly.example>",
        "List-Unsubscribe: <https://swiftweekly.example/unsubscribe?u=42>,",
        " <mailto:unsubscribe@swiftweekly.example?subject=unsubscribe>",
        "List-Unsubscribe-Post: List-Unsubscribe=One-Click",
        "Precedence: bulk",
        "MIME-Version: 1.0",
        'Content-Type: multipart/alternative; boundary="nl312"',
    ]
    return date, message(headers, body)


def personal_en():
    date = "Wed, 25 Nov 2026 18:45:10 +0100"
    text = """Hi Ada,

thanks for the great session today! Could you please send me the slides by Friday? I'd like to share them with the team before the workshop.

Also, the deadline for the conference talk proposal is December 4 — don't forget to submit yours.

Cheers,
Anna

--
Anna Kowalska
Developer Relations
"""
    text = text.replace("\n--\n", "\n-- \n")
    headers = [
        'From: "Anna Kowalska" <anna.kowalska@example.org>',
        f"To: {USER}",
        "Subject: Slides from today's session",
        f"Date: {date}",
        "Message-ID: <5f2c9a01.anna@example.org>",
        "MIME-Version: 1.0",
        "Content-Type: text/plain; charset=utf-8",
        "Content-Transfer-Encoding: quoted-printable",
    ]
    return date, message(headers, qp(text, "utf-8"))


def meeting_zh():
    """GB2312 subject (two adjacent B words across a folded line), GBK base64 body, UTF-8 calendar."""
    date = "Thu, 26 Nov 2026 10:20:00 +0800"
    text = """王芳，您好：

诚邀您参加2027年产品规划评审会议。
时间：12月1日（周二）14:00-15:30
地点：北京办公室 3号会议室

请在周一之前确认是否参加，并准备好各自团队的需求清单。

张伟
"""
    ics = "\r\n".join([
        "BEGIN:VCALENDAR",
        "PRODID:-//Example//Mail 1.0//ZH",
        "VERSION:2.0",
        "METHOD:REQUEST",
        "BEGIN:VEVENT",
        "UID:2027-roadmap-review@example.cn",
        "DTSTAMP:20261126T022000Z",
        "ORGANIZER;CN=张伟:mailto:zhang.wei@example.cn",
        "SUMMARY:2027年产品规划评审",
        "DTSTART;TZID=Asia/Shanghai:20261201T140000",
        "DTEND;TZID=Asia/Shanghai:20261201T153000",
        "LOCATION:北京办公室 3号会议室",
        "END:VEVENT",
        "END:VCALENDAR",
    ]) + "\r\n"
    body = f"""--zh-invite-01
Content-Type: text/plain; charset="GBK"
Content-Transfer-Encoding: base64

{b64(text.encode("gbk"))}
--zh-invite-01
Content-Type: text/calendar; charset="UTF-8"; method=REQUEST; name="invite.ics"
Content-Transfer-Encoding: base64

{b64(ics.encode("utf-8"))}
--zh-invite-01--
"""
    headers = [
        f'From: {word_b("张伟", "GB2312")} <zhang.wei@example.cn>',
        f"To: {word_b('王芳', 'GB2312')} <ada@example.com>",
        f"Subject: {word_b('会议邀请：', 'GB2312')}",
        f" {word_b('2027年产品规划评审', 'GB2312')}",
        f"Date: {date}",
        "Message-ID: <20261126102000.4711@example.cn>",
        "MIME-Version: 1.0",
        'Content-Type: multipart/mixed; boundary="zh-invite-01"',
    ]
    return date, message(headers, body)


def invoice_zh():
    date = "Fri, 27 Nov 2026 08:00:00 +0800"
    text = """尊敬的客户：

您2026年11月的账单已生成，电子发票已开具。
发票号码：CN-88012345
应付金额：¥1,280.00
付款截止日期：2026年12月5日

请于截止日期前完成付款，以免服务中断。

云服务团队
"""
    headers = [
        f'From: {word_q("云服务账单中心", "UTF-8")} <billing@cloud.example.cn>',
        f"To: {USER}",
        f"Subject: {word_q('【电子发票】您的11月账单已出，请于12月5日前付款', 'UTF-8')}",
        f"Date: {date}",
        "Message-ID: <bill-202611-88012345@cloud.example.cn>",
        "MIME-Version: 1.0",
        "Content-Type: text/plain; charset=UTF-8",
        "Content-Transfer-Encoding: quoted-printable",
    ]
    return date, message(headers, qp(text, "utf-8"))


def personal_zh():
    date = "Wed, 25 Nov 2026 21:05:00 +0800"
    text = """王芳：

请在周五之前把第三季度的销售报告发给我，我要在下周一的会上用。
明天下班前记得把合同扫描件发给财务。

谢谢！
李娜
"""
    headers = [
        f'From: {word_b("李娜", "UTF-8")} <li.na@example.cn>',
        f"To: {word_b('王芳', 'UTF-8')} <ada@example.com>",
        f"Subject: {word_b('关于第三季度销售报告', 'UTF-8')}",
        f"Date: {date}",
        "Message-ID: <a81c7d2e-li.na@example.cn>",
        "MIME-Version: 1.0",
        "Content-Type: text/plain; charset=UTF-8",
        "Content-Transfer-Encoding: base64",
    ]
    return date, message(headers, b64(text.encode("utf-8")))


def personal_latin1():
    """ISO-8859-1: Q-encoded words (two adjacent words, '_' for the space), an 8bit body."""
    date = "Thu, 26 Nov 2026 19:30:00 +0100"
    text = """Hi Ada,

are we still on for coffee tomorrow at 10? Please confirm by tonight.

À bientôt,
Renée
"""
    headers = [
        f'From: {word_q("Renée Dubois", "ISO-8859-1")} <renee@example.fr>',
        f"To: {USER}",
        f"Subject: {word_q('Café', 'ISO-8859-1')} {word_q(' tomorrow?', 'ISO-8859-1')}",
        f"Date: {date}",
        "Message-ID: <CAF-renee-20261126@example.fr>",
        "MIME-Version: 1.0",
        "Content-Type: text/plain; charset=ISO-8859-1",
        "Content-Transfer-Encoding: 8bit",
    ]
    return date, message(headers, text, charset="latin-1")


# (folder, flags or None for new/, builder): flags after ":2," — S = seen, R = replied.
MAILDIR = [
    ("new", None, invoice_en),
    ("cur", "S", meeting_en),
    ("cur", "S", newsletter),
    ("cur", "", personal_en),
    ("new", None, meeting_zh),
    ("cur", "S", invoice_zh),
    ("cur", "RS", personal_zh),
    ("cur", "S", personal_latin1),
]


def write_maildir():
    root = os.path.join(HERE, "Maildir")
    shutil.rmtree(root, ignore_errors=True)
    for sub in ("cur", "new", "tmp"):
        os.makedirs(os.path.join(root, sub))
    for n, (folder, flags, build) in enumerate(MAILDIR, start=1):
        date, data = build()
        name = "%d.M%dP%d.sample" % (timestamp(date), n, 1000 + n)
        if flags is not None:
            name += ":2," + flags
        with open(os.path.join(root, folder, name), "wb") as f:
            f.write(data)
    # A delivery still being written: readers must ignore tmp/.
    with open(os.path.join(root, "tmp", "1795721400.M99P1099.sample"), "wb") as f:
        f.write(b"From: half-written@example.com\nSubject: not delivered ye")


# --- mbox (mboxrd: body lines matching ^>*From  get one more '>') -------------------------------

def mbox_entry(envelope: str, data: bytes) -> bytes:
    lines = data.split(b"\n")
    out = []
    for line in lines:
        stripped = line.lstrip(b">")
        if stripped.startswith(b"From "):
            line = b">" + line
        out.append(line)
    body = b"\n".join(out)
    if not body.endswith(b"\n"):
        body += b"\n"
    return b"From " + envelope.encode("ascii") + b"\n" + body + b"\n"


def mbox_personal():
    date = "Mon, 23 Nov 2026 10:02:11 +0100"
    text = """Hi Ada,

From the agenda you sent, I'd drop item 3; we covered it last week.
>From a quoted mbox line, this one keeps one '>' after unescaping.

Please book the big room by Thursday.

Anna
"""
    headers = [
        'From: "Anna Kowalska" <anna.kowalska@example.org>',
        f"To: {USER}",
        "Subject: Re: Workshop agenda",
        f"Date: {date}",
        "Message-ID: <agenda-reply.anna@example.org>",
        "In-Reply-To: <agenda.ada@example.com>",
        "Status: RO",
        "Content-Type: text/plain; charset=us-ascii",
    ]
    return "anna.kowalska@example.org Mon Nov 23 09:02:11 2026", message(headers, text)


def mbox_newsletter():
    date = "Tue, 24 Nov 2026 06:00:00 -0500"
    html = """<html><head><style>p { color: red; }</style></head><body>
<h1>Black Friday: 40% off all plans</h1>
<p>Only this week &amp; only for subscribers.</p>
</body></html>
"""
    headers = [
        'From: "Deals" <news@deals.example>',
        f"To: {USER}",
        "Subject: Black Friday: 40% off all plans",
        f"Date: {date}",
        "Message-ID: <bf-2026@deals.example>",
        "List-Id: <deals.deals.example>",
        "Precedence: bulk",
        "Status: RO",
        "MIME-Version: 1.0",
        "Content-Type: text/html; charset=utf-8",
    ]
    return "news@deals.example Tue Nov 24 11:00:00 2026", message(headers, html)


def mbox_receipt():
    date = "Tue, 24 Nov 2026 12:14:00 +0100"
    text = """Thank you for your order!

Receipt number: R-55731
Total charged: USD 12.50 (paid by card)

Blue Bottle Coffee
"""
    headers = [
        'From: "Blue Bottle Coffee" <receipts@bluebottle.example>',
        f"To: {USER}",
        "Subject: Your receipt R-55731",
        f"Date: {date}",
        "Status: RO",
        "Content-Type: text/plain; charset=us-ascii",
    ]
    return "receipts@bluebottle.example Tue Nov 24 11:14:00 2026", message(headers, text)


def mbox_personal_gbk():
    """Raw 8bit GBK body, GBK B-encoded subject, no Status header (unread)."""
    date = "Tue, 24 Nov 2026 17:40:00 +0800"
    text = """王芳：

明天下午三点之前请把合同发给我。

王磊
"""
    headers = [
        f'From: {word_b("王磊", "GBK")} <wang.lei@example.cn>',
        f"To: {USER}",
        f"Subject: {word_b('合同的事', 'GBK')}",
        f"Date: {date}",
        "Message-ID: <contract.wang.lei@example.cn>",
        "MIME-Version: 1.0",
        "Content-Type: text/plain; charset=GBK",
        "Content-Transfer-Encoding: 8bit",
    ]
    return "wang.lei@example.cn Tue Nov 24 09:40:00 2026", message(headers, text, charset="gbk")


def write_mbox():
    with open(os.path.join(HERE, "archive.mbox"), "wb") as f:
        for build in (mbox_personal, mbox_newsletter, mbox_receipt, mbox_personal_gbk):
            f.write(mbox_entry(*build()))


if __name__ == "__main__":
    write_maildir()
    write_mbox()
    print("wrote", os.path.join(HERE, "Maildir"), "and", os.path.join(HERE, "archive.mbox"))
