import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { simpleParser, type ParsedMail } from "mailparser";
import { SMTPServer } from "smtp-server";
import { afterEach, describe, expect, it, vi } from "vitest";
import { isMessageId, listMessages, mailboxDir, readMessage, saveMessage } from "~/email/dev-mailbox.server";
import { createMailer, sendEmail } from "~/email/mailer.server";
import { emailButton, signInEmail } from "~/email/templates.server";
import { env } from "~/utils/env.server";
import { logger } from "~/utils/logger.server";
import { codeFrom, signInLinkFrom, startMailServer, waitForEmail } from "../e2e/mail-server";

const LINK = "https://glowcoach.app/magic?token=abc&id=xyz";
const SIGN_IN = { link: LINK, code: "K7P2QD", brandName: "Glow Coach", supportEmail: "support@glowcoach.app", expiresInMinutes: 15 };

function tempDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), "glow-mail-"));
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

describe("sign-in e-mail", () => {
  it("has an HTML and a plain-text part with the button, the code and the link", () => {
    const email = signInEmail(SIGN_IN);
    expect(email.subject).toBe("Your Glow Coach sign-in link");
    expect(email.html).toMatch(/<a href="https:\/\/glowcoach\.app\/magic\?token=abc&amp;id=xyz"[^>]*>Access My Skincare Plan<\/a>/);
    // A link that opens a new tab never hands the new page a handle on this one.
    const newTab = email.html.match(/<a [^>]*target="_blank"[^>]*>/g) ?? [];
    expect(newTab.length).toBeGreaterThan(0);
    for (const link of newTab) expect(link).toContain('rel="noopener noreferrer"');
    expect(email.html).toContain("K7P2QD");
    expect(email.html).toContain("expires in 15 minutes");
    expect(email.html).toContain("mailto:support@glowcoach.app");
    expect(email.text).toContain(LINK);
    expect(email.text).toContain("Or enter this code on the sign-in page: K7P2QD");
    expect(email.text).toContain("expires in 15 minutes");
    expect(email.text).toContain("ignore this e-mail");
    expect(email.text).toContain("support@glowcoach.app");
    expect(email.text).not.toMatch(/<[a-z]/i);
    // The link opens a page with one button; the e-mail says so, and promises no automatic sign-in.
    expect(email.html).toContain("then press &#39;Sign in&#39; on the page that opens");
    expect(email.text).toContain("then press 'Sign in' on the page that opens");
    expect(`${email.html} ${email.text}`).not.toMatch(/automatically|skincare plan\./);
  });

  it("keeps the brand look inline, since e-mail clients drop <style> and stylesheets", () => {
    const { html } = signInEmail(SIGN_IN);
    expect(html).not.toMatch(/<style|<link/i);
    expect(html).toContain('bgcolor="#fbf6f1"');
    expect(html).toContain('bgcolor="#9c4a5b"');
    expect(html).toContain("font-family:Georgia");
  });

  it("escapes every interpolated value", () => {
    const hostile = '"><script>alert(1)</script>';
    const { html, text } = signInEmail({ ...SIGN_IN, link: `https://x.test/${hostile}`, supportEmail: hostile, brandName: hostile, code: hostile });
    expect(html).not.toContain("<script>");
    expect(html).not.toContain('"><');
    expect(html).toContain("&quot;&gt;&lt;script&gt;");
    // The plain-text part is not HTML: it carries the values as they are.
    expect(text).toContain(`https://x.test/${hostile}`);
  });

  it("refuses a button that does not link to a web page", () => {
    expect(() => emailButton("Open", "javascript:alert(1)")).toThrow(/http/);
  });
});

describe("dev mailbox", () => {
  const message = { to: "ana@example.com", from: "Glow Coach <hello@glowcoach.app>", subject: "Hello", html: "<p>Hi</p>", text: "Hi", link: LINK };

  it("saves messages, lists them newest first and reads one by id", async () => {
    const dir = tempDir();
    const log = vi.spyOn(logger, "info").mockImplementation(() => {});
    const first = await saveMessage(dir, message);
    const second = await saveMessage(dir, { ...message, subject: "Second" });
    expect(isMessageId(first.id)).toBe(true);
    // The log points to the mailbox page and never carries the link (a sign-in secret).
    expect(log).toHaveBeenCalledWith({ mailboxId: first.id }, '[mail] to ana@example.com: "Hello": open /dev/mailbox to read it');
    expect(JSON.stringify(log.mock.calls)).not.toContain(LINK);
    expect((await listMessages(dir)).map((m) => m.subject)).toEqual(["Second", "Hello"]);
    expect(await readMessage(dir, second.id)).toEqual(second);
    expect(second).toMatchObject({ ...message, subject: "Second" });
    expect(Date.parse(second.createdAt)).not.toBeNaN();
  });

  it("refuses ids that are not exactly a mailbox id", async () => {
    const root = tempDir();
    const dir = path.join(root, "mailbox");
    // A well-formed message one folder up: only the id check keeps "../x" from reading it.
    fs.writeFileSync(path.join(root, "x.json"), JSON.stringify({ ...message, id: "x", createdAt: new Date().toISOString() }));
    for (const id of ["../x", "..%2Fx", "", "1234567890123-abcdef0", "1234567890123-abcdef012", "1234567890123-ABCDEF01.json"]) {
      expect(await readMessage(dir, id)).toBeNull();
    }
    expect(await readMessage(dir, "1234567890123-abcdef01")).toBeNull();
  });

  it("lists nothing before the first message", async () => {
    expect(await listMessages(path.join(tempDir(), "missing"))).toEqual([]);
  });

  it("is where sendEmail delivers without SMTP_URL", async () => {
    vi.spyOn(logger, "info").mockImplementation(() => {});
    const subject = `Dev mailbox ${Date.now()}`;
    await sendEmail({ to: "ana@example.com", subject, html: "<p>Hi</p>", text: "Hi" });
    const [newest] = await listMessages(mailboxDir(env.dataDir), 1);
    expect(newest).toMatchObject({ to: "ana@example.com", from: env.mail.from, subject });
  });
});

describe("SMTP", () => {
  /** An in-process SMTP server that wants user:pass and keeps what it receives. */
  async function smtpServer(): Promise<{ port: number; received: ParsedMail[]; logins: string[] }> {
    const received: ParsedMail[] = [];
    const logins: string[] = [];
    const server = new SMTPServer({
      authOptional: true,
      allowInsecureAuth: true,
      disabledCommands: ["STARTTLS"],
      onAuth(auth, _session, callback) {
        logins.push(`${auth.username}:${auth.password}`);
        callback(null, { user: auth.username });
      },
      onData(stream, _session, callback) {
        simpleParser(stream).then((mail) => {
          received.push(mail);
          callback();
        }, callback);
      },
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    cleanups.push(() => new Promise((resolve) => server.close(() => resolve())));
    const address = server.server.address();
    if (!address || typeof address === "string") throw new Error("no port");
    return { port: address.port, received, logins };
  }

  it("delivers both parts from MAIL_FROM, with the credentials in SMTP_URL", async () => {
    const server = await smtpServer();
    const mailer = createMailer({ from: "Glow Coach <hello@glowcoach.app>", smtpUrl: `smtp://mailer:s3cret@127.0.0.1:${server.port}` });
    await mailer.send({ to: "ana@example.com", ...signInEmail(SIGN_IN), link: LINK });

    expect(server.logins).toEqual(["mailer:s3cret"]);
    const [mail] = server.received;
    expect(mail.from?.text).toBe('"Glow Coach" <hello@glowcoach.app>');
    expect(mail.to).toMatchObject({ text: "ana@example.com" });
    expect(mail.subject).toBe("Your Glow Coach sign-in link");
    expect(mail.html).toContain("Access My Skincare Plan");
    expect(mail.html).toContain("K7P2QD");
    expect(mail.text).toContain(LINK);
  });

  it("lets a failed delivery reach the caller", async () => {
    const server = await smtpServer();
    const mailer = createMailer({ from: "hello@glowcoach.app", smtpUrl: `smtp://127.0.0.1:${server.port}` });
    await expect(mailer.send({ to: "not an address", subject: "x", html: "x", text: "x" })).rejects.toThrow();
    const closed = createMailer({ from: "hello@glowcoach.app", smtpUrl: "smtp://127.0.0.1:1" });
    await expect(closed.send({ to: "ana@example.com", subject: "x", html: "x", text: "x" })).rejects.toThrow(/ECONNREFUSED/);
  });
});

describe("end-to-end mail helpers", () => {
  it("store each delivery, and find the newest one's sign-in link and code", async () => {
    const dir = tempDir();
    const server = await startMailServer({ port: 0, dir });
    cleanups.push(server.stop);
    const mailer = createMailer({ from: "Glow Coach <hello@glowcoach.app>", smtpUrl: `smtp://127.0.0.1:${server.port}` });

    await mailer.send({ to: "Ana@Example.com", ...signInEmail({ ...SIGN_IN, code: "AAAAAA" }) });
    const after = new Date();
    await mailer.send({ to: "ana@example.com", ...signInEmail(SIGN_IN) });

    const mail = await waitForEmail(dir, "ANA@example.com", { after });
    expect(mail).toMatchObject({ to: "ana@example.com", from: '"Glow Coach" <hello@glowcoach.app>', subject: "Your Glow Coach sign-in link" });
    expect(signInLinkFrom(mail)).toBe(LINK);
    expect(codeFrom(mail)).toBe("K7P2QD");
    await expect(waitForEmail(dir, "someone@example.com", { timeoutMs: 200 })).rejects.toThrow(/No e-mail to someone@example.com/);
  });
});

describe("reminderEmail", () => {
  it("names the plan and the streak, escapes what it shows, and has text and HTML parts", async () => {
    const { reminderEmail } = await import("~/email/templates.server");
    const mail = reminderEmail({
      planName: "<b>Glow</b> & Go",
      streak: 4,
      routineLink: "https://glowcoach.app/reminders/open?plan=x&sig=y",
      unsubscribeLink: "https://glowcoach.app/reminders/unsubscribe?token=a.b",
      brandName: "Glow Coach",
    });
    expect(mail.subject).toBe("Keep your 4-day streak going");
    expect(mail.html).toContain("&lt;b&gt;Glow&lt;/b&gt; &amp; Go");
    expect(mail.html).not.toContain("<b>Glow</b>");
    expect(mail.html).toContain('href="https://glowcoach.app/reminders/open?plan=x&amp;sig=y"');
    expect(mail.text).toContain("Open Today's Routine:\nhttps://glowcoach.app/reminders/open?plan=x&sig=y");
    expect(mail.text).toContain("Turn off reminders:\nhttps://glowcoach.app/reminders/unsubscribe?token=a.b");
    expect(
      reminderEmail({ planName: "Makeup Prep", streak: 0, routineLink: "https://x.test/r", unsubscribeLink: "https://x.test/u", brandName: "Glow Coach" })
        .subject,
    ).toBe("Your Makeup Prep routine is waiting");
  });
});
