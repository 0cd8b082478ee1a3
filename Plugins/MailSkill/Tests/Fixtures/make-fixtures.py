#!/usr/bin/env python3
"""Writes the mail skill's charset and forwarded-mail fixtures (Tests/Fixtures/*.eml), byte by byte with
Python's codecs, so what each file holds is stated here. The files are committed; the tests need no Python.

    python3 Plugins/MailSkill/Tests/Fixtures/make-fixtures.py

Each file stands for something real clients send:
  raw-gbk.eml          Subject and From display name as raw GBK bytes (no RFC 2047), body 8bit GBK with no
                       charset parameter — older Chinese webmail and Foxmail setups.
  raw-big5.eml         the same in Big5 (Taiwan/Hong Kong), body labelled US-ASCII.
  raw-gbk-hinted.eml   raw GBK Subject, body correctly labelled charset=gbk (the label is the hint).
  gbk-labelled-latin1.eml  body bytes in GBK but labelled iso-8859-1 (a misconfigured gateway).
  raw-latin1.eml       raw ISO-8859-1 Subject ("Café …"), unlabelled Latin-1 body: stays Western.
  raw-shift-jis.eml    raw Shift_JIS Subject (Japanese), body unlabelled Shift_JIS.
  forwarded.eml        a message with a forwarded message/rfc822 attachment that itself forwards one more
                       (two levels), the inner subjects RFC 2047 encoded, the innermost body quoted-printable.
"""
import base64
import os

HERE = os.path.dirname(os.path.abspath(__file__))


def write(name, parts):
    data = b"".join(p if isinstance(p, bytes) else p.encode("ascii") for p in parts)
    with open(os.path.join(HERE, name), "wb") as f:
        f.write(data)


def simple(name, subject, sender, body, content_type):
    write(name, [
        b"From: ", sender, b"\n",
        "To: Ada Wang <ada@example.com>\n",
        b"Subject: ", subject, b"\n",
        "Date: Tue, 24 Nov 2026 09:30:00 +0800\n",
        "Message-ID: <%s@fixtures.example>\n" % name,
        "MIME-Version: 1.0\n",
        "Content-Type: %s\n" % content_type,
        "Content-Transfer-Encoding: 8bit\n",
        "\n",
        body,
    ])


simple("raw-gbk.eml", "关于下周项目会议的通知".encode("gbk"), "张伟 <zhang.wei@example.cn>".encode("gbk"),
       "王芳你好，\n\n下周一上午十点在三楼会议室开项目会议，请准时参加。\n\n张伟\n".encode("gbk"), "text/plain")
simple("raw-big5.eml", "請確認本週的會議時間".encode("big5"), "陳美玲 <chen.meiling@example.tw>".encode("big5"),
       "您好：\n\n請確認本週四下午的會議時間，謝謝。\n\n陳美玲\n".encode("big5"), "text/plain; charset=us-ascii")
simple("raw-gbk-hinted.eml", "发票已开".encode("gbk"), b"Li Na <li.na@example.cn>",
       "发票已经开好了，请查收附件。\n".encode("gbk"), "text/plain; charset=gbk")
simple("gbk-labelled-latin1.eml", b"Invoice", b"Billing <billing@example.cn>",
       "您的发票已经开具，金额为人民币一千元。请在本月底前付款。\n".encode("gbk"), "text/plain; charset=iso-8859-1")
simple("raw-latin1.eml", "Café à côté demain?".encode("latin-1"), "Renée Dubois <renee@example.fr>".encode("latin-1"),
       "On se retrouve au café à côté du bureau, à midi?\nRenée\n".encode("latin-1"), "text/plain")
simple("raw-shift-jis.eml", "会議の資料をお送りします".encode("shift_jis"), b"Sato <sato@example.jp>",
       "佐藤です。明日の会議の資料をお送りします。よろしくお願いします。\n".encode("shift_jis"), "text/plain")

innermost = [
    "From: =?UTF-8?B?%s?= <li.na@example.cn>\n" % base64.b64encode("李娜".encode()).decode(),
    "To: Zhang Wei <zhang.wei@example.cn>\n",
    "Subject: =?UTF-8?B?%s?=\n" % base64.b64encode("预算草案".encode()).decode(),
    "Date: Mon, 23 Nov 2026 16:05:00 +0800\n",
    "Message-ID: <budget-draft@example.cn>\n",
    "MIME-Version: 1.0\n",
    "Content-Type: text/plain; charset=utf-8\n",
    "Content-Transfer-Encoding: quoted-printable\n",
    "\n",
    "Budget draft attached in the shared folder. =E8=AF=B7=E5=AE=A1=E9=98=85=E3=80=82\n",
]
middle = [
    "From: Zhang Wei <zhang.wei@example.cn>\n",
    "To: Ada Wang <ada@example.com>\n",
    "Subject: Fwd: =?UTF-8?B?%s?=\n" % base64.b64encode("预算草案".encode()).decode(),
    "Date: Mon, 23 Nov 2026 18:00:00 +0800\n",
    "MIME-Version: 1.0\n",
    "Content-Type: multipart/mixed; boundary=\"middle-b\"\n",
    "\n",
    "--middle-b\n",
    "Content-Type: text/plain; charset=us-ascii\n",
    "\n",
    "See Li Na's draft below.\n",
    "--middle-b\n",
    "Content-Type: message/rfc822\n",
    "Content-Disposition: attachment; filename=\"budget.eml\"\n",
    "\n",
] + innermost + ["--middle-b--\n"]
write("forwarded.eml", [
    "From: Bob Stone <bob@example.org>\n",
    "To: Ada Wang <ada@example.com>\n",
    "Subject: Fwd: Fwd: budget\n",
    "Date: Tue, 24 Nov 2026 08:00:00 +0000\n",
    "Message-ID: <fwd-fwd@example.org>\n",
    "MIME-Version: 1.0\n",
    "Content-Type: multipart/mixed; boundary=\"outer-b\"\n",
    "\n",
    "--outer-b\n",
    "Content-Type: text/plain; charset=us-ascii\n",
    "\n",
    "Forwarding the thread, see attached.\n",
    "--outer-b\n",
    "Content-Type: message/rfc822\n",
    "\n",
] + middle + ["--outer-b--\n"])
