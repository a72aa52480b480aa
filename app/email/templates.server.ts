/**
 * E-mail bodies. E-mail clients drop <style> blocks and external CSS, so the brand look
 * is written as inline styles on tables; every interpolated value is escaped.
 */

export type RenderedEmail = { subject: string; html: string; text: string };

const BRAND = {
  cream: "#fbf6f1",
  line: "#eadbd0",
  ink: "#2e2227",
  muted: "#6f5d65",
  rose: "#9c4a5b",
  serif: "Georgia, 'Times New Roman', serif",
  sans: "-apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif",
  mono: "'SFMono-Regular', Menlo, Consolas, 'Courier New', monospace",
};

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ESCAPES[c]);
}

/** A paragraph of body copy (the text is escaped). */
export function paragraph(text: string): string {
  return `<p style="margin:0 0 16px;font-family:${BRAND.sans};font-size:16px;line-height:24px;color:${BRAND.ink};">${escapeHtml(text)}</p>`;
}

/**
 * A "bulletproof" button for bodyHtml: a table cell carries the colour and the link a border
 * in the same colour, so it stays a solid rosewood button in clients that ignore padding on
 * links (Outlook) or block images.
 */
export function emailButton(label: string, href: string): string {
  // Escaping keeps the markup intact, but a javascript: or data: URL would still run when clicked.
  if (!/^https?:\/\//i.test(href)) throw new Error(`e-mail buttons link to http(s) URLs, not ${href.slice(0, 40)}`);
  const colour = BRAND.rose;
  return `<table role="presentation" border="0" cellpadding="0" cellspacing="0" align="center" style="margin:8px auto 24px;">
<tr><td align="center" bgcolor="${colour}" style="border-radius:999px;background-color:${colour};">
<a href="${escapeHtml(href)}" target="_blank" rel="noopener noreferrer" style="display:inline-block;padding:14px 32px;border:1px solid ${colour};border-radius:999px;font-family:${BRAND.sans};font-size:16px;font-weight:bold;line-height:20px;color:#ffffff;text-decoration:none;">${escapeHtml(label)}</a>
</td></tr></table>`;
}

export type EmailLayout = {
  brandName: string;
  /** The preview line inbox lists show after the subject. */
  preheader: string;
  heading: string;
  /** Trusted HTML: build it from paragraph(), emailButton() and escapeHtml(). */
  bodyHtml: string;
  /** Trusted HTML shown small under the card. */
  footerHtml: string;
};

/** The brand frame every e-mail shares: cream page, white card, serif heading. */
export function layoutEmail(input: EmailLayout): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light">
<title>${escapeHtml(input.heading)}</title>
</head>
<body style="margin:0;padding:0;background-color:${BRAND.cream};">
<div style="display:none;max-height:0;overflow:hidden;mso-hide:all;">${escapeHtml(input.preheader)}</div>
<table role="presentation" width="100%" border="0" cellpadding="0" cellspacing="0" bgcolor="${BRAND.cream}" style="background-color:${BRAND.cream};">
<tr><td align="center" style="padding:32px 16px;">
<table role="presentation" width="100%" border="0" cellpadding="0" cellspacing="0" style="max-width:560px;">
<tr><td align="center" style="padding:0 0 20px;font-family:${BRAND.serif};font-size:22px;font-weight:bold;color:${BRAND.rose};">${escapeHtml(input.brandName)}</td></tr>
<tr><td bgcolor="#ffffff" style="padding:36px 32px 20px;background-color:#ffffff;border:1px solid ${BRAND.line};border-radius:20px;">
<h1 style="margin:0 0 20px;font-family:${BRAND.serif};font-size:28px;font-weight:normal;line-height:34px;color:${BRAND.ink};">${escapeHtml(input.heading)}</h1>
${input.bodyHtml}
</td></tr>
<tr><td align="center" style="padding:20px 16px 0;font-family:${BRAND.sans};font-size:13px;line-height:20px;color:${BRAND.muted};">${input.footerHtml}</td></tr>
</table>
</td></tr>
</table>
</body>
</html>`;
}

const SIGN_IN_BUTTON_LABEL = "Access My Skincare Plan";

function minutes(count: number): string {
  return `${count} ${count === 1 ? "minute" : "minutes"}`;
}

function codeBlock(label: string, code: string): string {
  return `<p style="margin:0 0 8px;font-family:${BRAND.sans};font-size:15px;line-height:22px;color:${BRAND.muted};text-align:center;">${escapeHtml(label)}</p>
<p style="margin:0 0 24px;font-family:${BRAND.mono};font-size:30px;font-weight:bold;letter-spacing:6px;line-height:38px;color:${BRAND.ink};text-align:center;">${escapeHtml(code)}</p>`;
}

/** Why the e-mail was sent: the wording differs, the link and code work the same way. */
export type LinkEmailKind = "sign-in" | "confirm-registration" | "account-exists";

const WORDING: Record<LinkEmailKind, (brand: string) => { subject: string; heading: string; intro: string; ignore: string }> = {
  "sign-in": (brand) => ({
    subject: `Your ${brand} sign-in link`,
    heading: "Your sign-in link",
    intro: `Sign in to ${brand} to see your personalised plan.`,
    ignore: "If you didn't ask to sign in, you can safely ignore this e-mail: nobody can sign in without this link or code.",
  }),
  "confirm-registration": (brand) => ({
    subject: `Confirm your ${brand} account`,
    heading: "Confirm your e-mail",
    intro: `Someone, hopefully you, created a ${brand} account with this address. Confirm it's yours to finish, and you'll be signed in.`,
    ignore: "If you didn't create an account, ignore this e-mail: nothing happens without this link or code, and no password is kept.",
  }),
  "account-exists": (brand) => ({
    subject: `You already have a ${brand} account`,
    heading: "You already have an account",
    intro: `Someone, hopefully you, tried to create a ${brand} account with this address, but you already have one. Nothing about it changed. To sign in, use this link.`,
    ignore: "If that wasn't you, you can safely ignore this e-mail: nobody can sign in without this link or code.",
  }),
};

/** The magic-link e-mail: a button, the same sign-in as a code, and what to do if unexpected. */
export function signInEmail(input: {
  link: string;
  code: string;
  brandName: string;
  supportEmail: string;
  expiresInMinutes: number;
  kind?: LinkEmailKind;
}): RenderedEmail {
  const { link, code, brandName, supportEmail } = input;
  const wording = WORDING[input.kind ?? "sign-in"](brandName);
  const intro = wording.intro;
  // What the link really does: it opens a page with one 'Sign in as …' button (so e-mail
  // scanners that open links cannot use it up), and pressing that signs you in.
  const howTo = "Tap the button below, then press 'Sign in' on the page that opens.";
  const codeLine = "Or enter this code on the sign-in page:";
  const expiry = `The link works once and expires in ${minutes(input.expiresInMinutes)}.`;
  const ignore = wording.ignore;

  const html = layoutEmail({
    brandName,
    preheader: `Your sign-in link and code. ${expiry}`,
    heading: wording.heading,
    bodyHtml: [
      paragraph("Hi there,"),
      paragraph(`${intro} ${howTo}`),
      emailButton(SIGN_IN_BUTTON_LABEL, link),
      codeBlock(codeLine, code),
      paragraph(expiry),
      paragraph(ignore),
    ].join("\n"),
    footerHtml: `Questions? Write to <a href="mailto:${escapeHtml(supportEmail)}" style="color:${BRAND.rose};">${escapeHtml(supportEmail)}</a>.`,
  });

  const text = [
    "Hi there,",
    `${intro} Open this link, then press 'Sign in' on the page that opens.`,
    `${SIGN_IN_BUTTON_LABEL}:\n${link}`,
    `${codeLine} ${code}`,
    expiry,
    ignore,
    `Questions? Write to ${supportEmail}.`,
    `The ${brandName} team`,
  ].join("\n\n");

  return { subject: wording.subject, html, text: `${text}\n` };
}

const REMINDER_BUTTON_LABEL = "Open Today's Routine";

/**
 * The daily reminder: the plan, the streak at stake, one button to today's routine, and the
 * way to stop these e-mails in one click.
 */
export function reminderEmail(input: { planName: string; streak: number; routineLink: string; unsubscribeLink: string; brandName: string }): RenderedEmail {
  const { planName, streak, routineLink, unsubscribeLink, brandName } = input;
  const subject = streak > 0 ? `Keep your ${streak}-day streak going` : `Your ${planName} routine is waiting`;
  const heading = streak > 0 ? `Keep your ${streak}-day streak going` : "Time for today's routine";
  const intro = `Today's ${planName} routine is waiting for you: six small steps, a few minutes.`;
  const why = streak > 0 ? "Finish it today and your streak grows by one." : "Finish it today to start a new streak.";
  const stop = "You get this e-mail because you turned on daily reminders.";
  const html = layoutEmail({
    brandName,
    preheader: `${intro} ${why}`,
    heading,
    bodyHtml: [paragraph(intro), paragraph(why), emailButton(REMINDER_BUTTON_LABEL, routineLink)].join("\n"),
    footerHtml: `${escapeHtml(stop)} <a href="${escapeHtml(unsubscribeLink)}" style="color:${BRAND.rose};">Turn off reminders</a>.`,
  });
  const text = [
    heading,
    intro,
    why,
    `${REMINDER_BUTTON_LABEL}:\n${routineLink}`,
    `${stop} Turn off reminders:\n${unsubscribeLink}`,
    `The ${brandName} team`,
  ].join("\n\n");
  return { subject, html, text: `${text}\n` };
}

/** A plain e-mail of the billing kind (a refund, a plan switch): a heading, paragraphs, a link to the profile. */
function billingEmail(input: { subject: string; heading: string; paragraphs: string[]; profileLink: string; brandName: string }): RenderedEmail {
  const { subject, heading, paragraphs, profileLink, brandName } = input;
  const footer = "You get this e-mail because of a change to your plan.";
  const html = layoutEmail({
    brandName,
    preheader: paragraphs[0] ?? heading,
    heading,
    bodyHtml: [...paragraphs.map(paragraph), emailButton("View my profile", profileLink)].join("\n"),
    footerHtml: escapeHtml(footer),
  });
  const text = [heading, ...paragraphs, `View my profile:\n${profileLink}`, `The ${brandName} team`].join("\n\n");
  return { subject, html, text: `${text}\n` };
}

/** A refund made from the billing page: how much, where it goes, and that the access has ended. */
export function refundEmail(input: {
  amount: string;
  planName: string;
  productName: string;
  recurring: boolean;
  profileLink: string;
  brandName: string;
}): RenderedEmail {
  const { amount, planName, productName, recurring } = input;
  return billingEmail({
    ...input,
    subject: `Your refund of ${amount}`,
    heading: "Your refund is on its way",
    paragraphs: [
      `We've refunded ${amount} for your ${planName} to the card you paid with. Refunds take 5-10 business days to appear on your statement, depending on your bank.`,
      `Your access to ${productName} has ended.${recurring ? " Your subscription is cancelled and you won't be charged again." : ""}`,
      "If you change your mind, you can buy the plan again any time.",
    ],
  });
}

/** A plan switch: the new plan and, in the member's words, what happened to the money already paid. */
export function planSwitchEmail(input: { fromPlan: string; toPlan: string; money: string[]; profileLink: string; brandName: string }): RenderedEmail {
  return billingEmail({
    ...input,
    subject: `You're now on the ${input.toPlan}`,
    heading: `You're now on the ${input.toPlan}`,
    paragraphs: [`Your ${input.fromPlan} has moved to the ${input.toPlan} today.`, ...input.money],
  });
}

/** A one-tap purchase after checkout (ADR 45): what was bought, what it cost, which card paid. */
export function oneTapReceiptEmail(input: {
  amount: string;
  planName: string;
  productName: string;
  profileLink: string;
  brandName: string;
  /** Paid on the local test checkout's saved test card: no money moved, and the receipt says so. */
  testPayment: boolean;
}): RenderedEmail {
  const { amount, planName, productName, testPayment } = input;
  return billingEmail({
    ...input,
    subject: `Your receipt${testPayment ? " (test payment)" : ""}: ${productName}, ${amount}`,
    heading: `${productName} is yours`,
    paragraphs: [
      testPayment
        ? `Thank you! This was a test payment of ${amount} for your ${planName} (one-time) on the saved test card: no real money was charged.`
        : `Thank you! We charged ${amount} for your ${planName} (a one-time payment) to the card you used at checkout.`,
      `${productName} is now in your plans, with lifetime access. Open it from your home page.`,
    ],
  });
}

const RECOVERY_BUTTON_LABEL = "See My Plan";

/**
 * A recovery e-mail (ADR 44): the visitor's own result and a link back to their offer with their
 * answers. `number` 1 is the first of the sequence; "checkout" is the reminder of a checkout
 * left unfinished. No deadline is claimed: the offer page shows only a real one.
 */
export function recoveryEmail(input: {
  kind: "sequence" | "checkout";
  number: number;
  resultTitle: string;
  resultSummary: string;
  answersLine: string | null;
  planName: string;
  link: string;
  unsubscribeLink: string;
  /** The e-mail's 1×1 image, whose loading counts it opened. */
  openImage: string;
  brandName: string;
}): RenderedEmail {
  const { kind, number, resultTitle, resultSummary, answersLine, planName, link, unsubscribeLink, openImage, brandName } = input;
  const subject =
    kind === "checkout" ? "You were one step away from your plan" : number === 1 ? "Your plan is ready when you are" : `Still thinking it over? ${resultTitle}`;
  const heading = kind === "checkout" ? "Your checkout is waiting" : "Your plan is saved";
  const intro =
    kind === "checkout"
      ? `You started checking out the ${planName} and didn't finish. Your answers and your plan are saved: pick up where you left off.`
      : `Here is what your answers told us, and the ${planName} built around them.`;
  const stop = "You get this e-mail because you asked us to send your plan and agreed to e-mails from us.";
  const html = layoutEmail({
    brandName,
    preheader: intro,
    heading,
    bodyHtml: [
      paragraph(intro),
      paragraph(resultTitle),
      paragraph(resultSummary),
      ...(answersLine ? [paragraph(answersLine)] : []),
      emailButton(RECOVERY_BUTTON_LABEL, link),
    ].join("\n"),
    footerHtml: `${escapeHtml(stop)} <a href="${escapeHtml(unsubscribeLink)}" style="color:${BRAND.rose};">Unsubscribe</a>.<img src="${escapeHtml(openImage)}" width="1" height="1" alt="" style="display:block;width:1px;height:1px;border:0;">`,
  });
  const text = [
    heading,
    intro,
    resultTitle,
    resultSummary,
    ...(answersLine ? [answersLine] : []),
    `${RECOVERY_BUTTON_LABEL}:\n${link}`,
    `${stop} Unsubscribe:\n${unsubscribeLink}`,
    `The ${brandName} team`,
  ].join("\n\n");
  return { subject, html, text: `${text}\n` };
}
