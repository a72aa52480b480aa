/**
 * Accounts end to end: every sign-in path through the real e-mail (test SMTP server) and
 * the real OpenID server, the link's failure states, rate limits, redirects and logout.
 */
import { devices, expect, test } from "@playwright/test";
import { accountMenu, requestSignInEmail, signIn, uniqueEmail, useOwnIp } from "./accounts";
import { codeFrom, E2E_MAIL_DIR, signInLinkFrom, waitForEmail } from "./mail-server";
import { GOOGLE_TEST_USER } from "./oauth-server";
import { hydrated, jsEnabled, ownLimitMinute } from "./support";

test.beforeEach(async ({ context }) => {
  await useOwnIp(context);
});

test.describe("e-mail link sign-in", () => {
  test("the login page, the e-mail, the link's button, then home and the avatar menu @no-js @phone @phone-no-js", async ({ page }, testInfo) => {
    const email = uniqueEmail("link", testInfo);
    await page.goto("/login");
    await expect(page.getByRole("heading", { level: 1, name: "Access Your Plan" })).toBeVisible();
    await expect(page.getByRole("button", { name: "Continue with Google" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Back to Home" })).toHaveAttribute("href", "/");
    // 'Send Magic Link' shows only once an e-mail is typed (CSS, so also without JavaScript).
    await expect(page.getByRole("button", { name: "Send Magic Link" })).toBeHidden();

    const sentAfter = new Date(Date.now() - 1000);
    // Spaces around the address are trimmed; capitals don't make a second account.
    await page.getByLabel("E-mail").fill(`  ${email.toUpperCase()}  `);
    await page.getByRole("button", { name: "Send Magic Link" }).click();
    await expect(page).toHaveURL("/login/check-email");
    await expect(page.getByRole("heading", { level: 1, name: "Check Your Email!" })).toBeVisible();
    await expect(page.getByText("Magic link sent!", { exact: true })).toBeVisible();
    await expect(page.getByText("Check your email and click the link to access your skincare plan.", { exact: true })).toBeVisible();
    await expect(page.getByText("Click the 'Access My Skincare Plan' button in the e-mail.")).toBeVisible();
    await expect(page.getByRole("link", { name: "Back to Home" })).toBeVisible();

    const mail = await waitForEmail(E2E_MAIL_DIR, email, { after: sentAfter });
    expect(mail.subject).toBe("Your Glow Coach sign-in link");
    expect(mail.text).toContain("Access My Skincare Plan");
    expect(mail.html).toContain("Access My Skincare Plan");
    const link = signInLinkFrom(mail);
    expect(new URL(link).pathname).toBe("/magic");

    // Opening the link (as an e-mail scanner would) spends nothing: it shows one button.
    await page.goto(link);
    await page.goto(link);
    await page.getByRole("button", { name: `Sign in as ${email}` }).click();
    await expect(page).toHaveURL("/home");
    await expect(accountMenu(page, email)).toBeVisible();
    // Initials: the first two letters of the part before @, upper-cased.
    await expect(accountMenu(page, email)).toHaveText("LI");

    // Signed in: /login goes home.
    await page.goto("/login");
    await expect(page).toHaveURL("/home");

    // The avatar menu: Settings (profile) and Logout (then /, signed out).
    await accountMenu(page, email).click();
    await expect(page.getByRole("link", { name: "Settings" })).toHaveAttribute("href", "/profile");
    await page.getByRole("button", { name: "Logout" }).click();
    await expect(page).toHaveURL("/");
    await expect(accountMenu(page, email)).toHaveCount(0);
    await page.goto("/admin");
    await expect(page).toHaveURL(/\/login/);
  });

  test("the code from the e-mail signs in on another device @no-js", async ({ page }, testInfo) => {
    const email = uniqueEmail("code", testInfo);
    const mail = await requestSignInEmail(page, email);
    const code = codeFrom(mail);
    expect(code).toMatch(/^[A-Z0-9]{6}$/);
    // A wrong code says so and keeps the form.
    await page.getByLabel(/Enter the code/).fill("AAAAAA" === code ? "BBBBBB" : "AAAAAA");
    await page.getByRole("button", { name: "Sign in with code" }).click();
    await expect(page.getByText(/That code doesn't match/)).toBeVisible();
    // Typed in lower case with a space, as people do.
    await page.getByLabel(/Enter the code/).fill(`${code.slice(0, 3).toLowerCase()} ${code.slice(3).toLowerCase()}`);
    await page.getByRole("button", { name: "Sign in with code" }).click();
    await expect(page).toHaveURL("/home");
    await expect(accountMenu(page, email)).toBeVisible();
    // The code used the link's one use: the link now says so.
    await page.context().clearCookies();
    await page.goto(signInLinkFrom(mail));
    await expect(page.getByRole("heading", { level: 1, name: "This link has already been used" })).toBeVisible();
  });

  test("a used link says 'already used' and offers a new one", async ({ page, browser }, testInfo) => {
    const email = uniqueEmail("reuse", testInfo);
    const mail = await requestSignInEmail(page, email);
    const link = signInLinkFrom(mail);
    await page.goto(link);
    await page.getByRole("button", { name: `Sign in as ${email}` }).click();
    await expect(page).toHaveURL("/home");

    // The same link in another browser.
    const other = await browser.newContext({ javaScriptEnabled: jsEnabled(testInfo) });
    await useOwnIp(other);
    const second = await other.newPage();
    const response = await second.goto(link);
    expect(response?.status()).toBe(410);
    await expect(second.getByRole("heading", { level: 1, name: "This link has already been used" })).toBeVisible();
    await expect(second.getByLabel("E-mail")).toHaveValue(email);
    await second.getByRole("button", { name: "Send a new link" }).click();
    await expect(second.getByRole("heading", { level: 1, name: "Check Your Email!" })).toBeVisible();
    await other.close();
  });

  test("a link opened after 15 minutes says 'expired'", async ({ page, context }, testInfo) => {
    const email = uniqueEmail("expired", testInfo);
    const mail = await requestSignInEmail(page, email);
    // This browser's requests now run 16 minutes later (TEST_CLOCK; other tests keep the real time).
    await useOwnIp(context, { "X-Test-Clock-Offset-Ms": String(16 * 60_000) });
    const response = await page.goto(signInLinkFrom(mail));
    expect(response?.status()).toBe(410);
    await expect(page.getByRole("heading", { level: 1, name: "This link has expired" })).toBeVisible();
    await expect(page.getByRole("button", { name: "Send a new link" })).toBeVisible();
  });

  test("a newer link supersedes an older one", async ({ page }, testInfo) => {
    const email = uniqueEmail("superseded", testInfo);
    const first = await requestSignInEmail(page, email);
    const second = await requestSignInEmail(page, email);
    expect(signInLinkFrom(second)).not.toBe(signInLinkFrom(first));
    const response = await page.goto(signInLinkFrom(first));
    expect(response?.status()).toBe(410);
    await expect(page.getByRole("heading", { level: 1, name: "A newer link was sent" })).toBeVisible();
    await page.goto(signInLinkFrom(second));
    await page.getByRole("button", { name: `Sign in as ${email}` }).click();
    await expect(page).toHaveURL("/home");
  });

  test("a tampered or cut-off link is refused with its own message", async ({ page }, testInfo) => {
    const email = uniqueEmail("tampered", testInfo);
    const link = new URL(signInLinkFrom(await requestSignInEmail(page, email)));
    const token = link.searchParams.get("token")!;
    const tampered = new URL(link);
    tampered.searchParams.set("token", `${token.slice(0, -4)}AAAA`);
    const cut = new URL(link);
    cut.searchParams.delete("id");
    for (const url of [tampered, cut, new URL("/magic", link)]) {
      const response = await page.goto(url.pathname + url.search);
      expect(response?.status(), url.toString()).toBe(400);
      await expect(page.getByRole("heading", { level: 1, name: "This link isn't valid" })).toBeVisible();
    }
    // The real link still works afterwards.
    await page.goto(link.pathname + link.search);
    await page.getByRole("button", { name: `Sign in as ${email}` }).click();
    await expect(page).toHaveURL("/home");
  });

  test("more than 5 links an hour for one address gets a 429 saying when to try again", async ({ page }, testInfo) => {
    const email = uniqueEmail("limit", testInfo);
    for (let i = 0; i < 5; i++) await requestSignInEmail(page, email);
    await page.goto("/login");
    await page.getByLabel("E-mail").fill(email);
    const [response] = await Promise.all([
      page.waitForResponse((r) => r.url().includes("/login") && r.request().method() === "POST"),
      page.getByRole("button", { name: "Send Magic Link" }).click(),
    ]);
    expect(response.status()).toBe(429);
    await expect(page.getByText(/Too many sign-in e-mails\. Please try again in (\d+ minutes|1 minute)\./)).toBeVisible();
  });

  test("more than 20 links an hour from one address gets a 429", async ({ page }, testInfo) => {
    const request = page.context().request;
    for (let i = 0; i < 20; i++) {
      const response = await request.post("/login", { form: { email: uniqueEmail(`ip${i}`, testInfo), intent: "email-link" }, maxRedirects: 0 });
      expect(response.status(), `e-mail ${i + 1}`).toBe(303);
    }
    const response = await request.post("/login", { form: { email: uniqueEmail("ip-over", testInfo), intent: "email-link" }, maxRedirects: 0 });
    expect(response.status()).toBe(429);
    expect(Number(response.headers()["retry-after"])).toBeGreaterThan(0);
    expect(await response.text()).toContain("Too many sign-in e-mails");
  });

  test("over the request limit, the sign-in form shows 'Too many requests', with or without JavaScript @no-js", async ({ page }, testInfo) => {
    // One visitor may post 30 times a minute to one endpoint; the form's own post is the 31st.
    await page.context().setExtraHTTPHeaders(ownLimitMinute());
    for (let i = 0; i < 30; i++) await page.context().request.post("/login", { form: { email: "" }, maxRedirects: 0 });
    await page.goto("/login");
    await hydrated(page, testInfo);
    await page.getByLabel("E-mail").fill("someone@example.com");
    await page.getByRole("button", { name: "Send Magic Link" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Too many requests" })).toBeVisible();
    await expect(page.getByText(/Please wait a moment and try again in a minute\./)).toBeVisible();
  });

  test("the honeypot answers like a real send but sends nothing @no-js", async ({ page }, testInfo) => {
    const email = uniqueEmail("bot", testInfo);
    const response = await page.context().request.post("/login", { form: { email, intent: "email-link", website: "https://spam.example" }, maxRedirects: 0 });
    expect(response.status()).toBe(303);
    expect(response.headers().location).toBe("/login/check-email");
    await expect(waitForEmail(E2E_MAIL_DIR, email, { timeoutMs: 1500 })).rejects.toThrow(/No e-mail/);
  });
});

test.describe("redirects after sign-in", () => {
  test("a same-origin redirectTo is honoured", async ({ page }, testInfo) => {
    const email = uniqueEmail("next", testInfo);
    await page.goto("/admin");
    await expect(page).toHaveURL("/login?redirectTo=%2Fadmin");
    await page.getByLabel("E-mail").fill(email);
    await page.getByRole("button", { name: "Send Magic Link" }).click();
    const mail = await waitForEmail(E2E_MAIL_DIR, email);
    await page.goto(signInLinkFrom(mail));
    await page.getByRole("button", { name: `Sign in as ${email}` }).click();
    // Not an admin: /admin sends members home.
    await expect(page).toHaveURL("/home");
  });

  const attacks = [
    "https://evil.example/",
    "//evil.example/",
    "/\\evil.example",
    "%2F%2Fevil.example",
    "/%2F%2Fevil.example",
    "/%5Cevil.example",
    "%252F%252Fevil.example",
    "javascript:alert(1)",
    "/\t/evil.example",
  ];
  test("open-redirect attempts are ignored", async ({ page }, testInfo) => {
    for (const [i, redirectTo] of attacks.entries()) {
      const email = uniqueEmail(`redirect${i}`, testInfo);
      const request = page.context().request;
      await page.context().clearCookies();
      await request.post("/login", { form: { email, intent: "email-link", redirectTo }, maxRedirects: 0 });
      const link = signInLinkFrom(await waitForEmail(E2E_MAIL_DIR, email));
      const url = new URL(link);
      const response = await request.post(url.pathname + url.search, {
        form: { token: url.searchParams.get("token")!, id: url.searchParams.get("id")! },
        maxRedirects: 0,
      });
      expect(response.status(), redirectTo).toBe(303);
      expect(response.headers().location, redirectTo).toBe("/home");
    }
    // The login page's own redirectTo field is cleaned the same way.
    await page.context().clearCookies();
    await page.goto(`/login?redirectTo=${encodeURIComponent("//evil.example/")}`);
    await expect(page.locator('.send-link-form input[name="redirectTo"]')).toHaveValue("/home");
  });
});

test.describe("registration", () => {
  test("validation beside the fields, then an account, signed in on /home @no-js", async ({ page }, testInfo) => {
    const email = uniqueEmail("register", testInfo);
    await page.goto("/registration");
    await expect(page.getByRole("heading", { level: 1, name: "Create Your Account" })).toBeVisible();
    // The form's own links (the site footer has the same ones).
    await expect(page.getByRole("main").getByRole("link", { name: "Terms of Service" })).toHaveAttribute("href", "/terms-of-service");
    await expect(page.getByRole("main").getByRole("link", { name: "Privacy Policy" })).toHaveAttribute("href", "/privacy-policy");
    await expect(page.getByRole("main").getByRole("link", { name: "Sign in", exact: true })).toHaveAttribute("href", "/login");

    await page.getByRole("button", { name: "Create Account" }).click();
    await expect(page.getByText("Please enter your name.")).toBeVisible();
    await page.getByLabel("Full Name").fill("Ada Glow");
    await page.getByLabel("Email").fill("not-an-email");
    await page.getByLabel("Password", { exact: true }).fill("short");
    await page.getByLabel("Confirm Password").fill("different");
    await page.getByRole("button", { name: "Create Account" }).click();
    await expect(page.getByText("Please enter a valid e-mail address.")).toBeVisible();
    await expect(page.getByText("Use at least 8 characters.")).toBeVisible();
    // Passwords are never sent back into the page: type them again, as after a reload.
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password", { exact: true }).fill("long-enough-now");
    await page.getByLabel("Confirm Password").fill("long-enough-too");
    await page.getByRole("button", { name: "Create Account" }).click();
    await expect(page.getByText("The passwords don't match.")).toBeVisible();

    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password", { exact: true }).fill("rosewater-2026");
    await page.getByLabel("Confirm Password").fill("rosewater-2026");
    const sentAfter = new Date(Date.now() - 1000);
    await page.getByRole("button", { name: "Create Account" }).click();

    // Signing up proves nothing about the address: no session until the e-mail is confirmed.
    await expect(page).toHaveURL("/login/check-email");
    await expect(page.getByRole("heading", { level: 1, name: "Check Your Email!" })).toBeVisible();
    await expect(page.getByText("To finish creating your account, open the link we sent to")).toBeVisible();
    await expect(accountMenu(page, email)).toHaveCount(0);
    const confirmation = await waitForEmail(E2E_MAIL_DIR, email, { after: sentAfter });
    expect(confirmation.subject).toBe("Confirm your Glow Coach account");
    await page.goto(signInLinkFrom(confirmation));
    await expect(page.getByRole("heading", { level: 1, name: "Confirm your e-mail" })).toBeVisible();
    await page.getByRole("button", { name: "Confirm and sign in" }).click();
    await expect(page).toHaveURL("/home");
    await expect(page.getByText("Your e-mail is confirmed and you're signed in.")).toBeVisible();
    await expect(accountMenu(page, email)).toBeVisible();

    // The password works on /login; signing up again with the address changes nothing and
    // answers exactly as before (the owner gets an e-mail instead).
    await page.goto("/home"); // without JavaScript the toast stays over the header
    await accountMenu(page, email).click();
    await page.getByRole("button", { name: "Logout" }).click();
    await expect(page).toHaveURL("/");
    await page.goto("/registration");
    await page.getByLabel("Full Name").fill("Ada Again");
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password", { exact: true }).fill("another-password");
    await page.getByLabel("Confirm Password").fill("another-password");
    const againAfter = new Date(Date.now() - 1000);
    await page.getByRole("button", { name: "Create Account" }).click();
    await expect(page).toHaveURL("/login/check-email");
    await expect(page.getByText("To finish creating your account, open the link we sent to")).toBeVisible();
    expect((await waitForEmail(E2E_MAIL_DIR, email, { after: againAfter })).subject).toBe("You already have a Glow Coach account");
    await page.goto("/login?method=password");
    await page.getByLabel("E-mail").fill(email);
    await page.getByLabel("Password").fill("another-password");
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await expect(page.getByText(/That e-mail and password don't match\./)).toBeVisible();
    await page.getByLabel("Password").fill("rosewater-2026");
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await expect(page).toHaveURL("/home");
  });

  test("confirmed with the code on the sign-up page, the password is kept; confirmed in another browser, it is not @no-js", async ({
    page,
    browser,
  }, testInfo) => {
    const email = uniqueEmail("register-code", testInfo);
    await page.goto("/registration");
    await page.getByLabel("Full Name").fill("Bea Glow");
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password", { exact: true }).fill("camellia-2026");
    await page.getByLabel("Confirm Password").fill("camellia-2026");
    await page.getByRole("button", { name: "Create Account" }).click();
    await expect(page).toHaveURL("/login/check-email");
    await page.getByLabel(/Enter the code/).fill(codeFrom(await waitForEmail(E2E_MAIL_DIR, email)));
    await page.getByRole("button", { name: "Sign in with code" }).click();
    await expect(page).toHaveURL("/home");
    await expect(accountMenu(page, email)).toBeVisible();
    await page.context().clearCookies();
    const signIn = await page
      .context()
      .request.post("/login", { form: { intent: "password", email, password: "camellia-2026", redirectTo: "/home" }, maxRedirects: 0 });
    expect(signIn.status()).toBe(303);

    // Another sign-up, confirmed from a second browser: signed in there, its password not kept.
    const other = uniqueEmail("register-elsewhere", testInfo);
    await page.context().clearCookies();
    await page.goto("/registration");
    await page.getByLabel("Full Name").fill("Cleo Glow");
    await page.getByLabel("Email").fill(other);
    await page.getByLabel("Password", { exact: true }).fill("peony-2026-x");
    await page.getByLabel("Confirm Password").fill("peony-2026-x");
    await page.getByRole("button", { name: "Create Account" }).click();
    await expect(page).toHaveURL("/login/check-email");
    const phone = await browser.newContext({ javaScriptEnabled: jsEnabled(testInfo) });
    await useOwnIp(phone);
    const phonePage = await phone.newPage();
    await phonePage.goto(signInLinkFrom(await waitForEmail(E2E_MAIL_DIR, other)));
    await phonePage.getByRole("button", { name: "Confirm and sign in" }).click();
    await expect(phonePage).toHaveURL("/home");
    await expect(phonePage.getByText("Your password wasn't saved")).toBeVisible();
    await expect(accountMenu(phonePage, other)).toBeVisible();
    await phone.close();
    const tried = await page
      .context()
      .request.post("/login", { form: { intent: "password", email: other, password: "peony-2026-x", redirectTo: "/home" }, maxRedirects: 0 });
    expect(tried.status()).toBe(400);
  });
});

test.describe("Google sign-in", () => {
  test("against a real local OpenID server: popup with JavaScript, full page without @no-js", async ({ page, context }, testInfo) => {
    await page.goto("/login");
    if (jsEnabled(testInfo)) {
      await hydrated(page, testInfo);
      // Listened for before the click: on a fast run the popup is done and closed before
      // the test gets to ask for its responses.
      const callbackAnswered = context.waitForEvent("response", { predicate: (r) => new URL(r.url()).pathname === "/auth/callback", timeout: 20_000 });
      const popupOpened = page.waitForEvent("popup");
      await page.getByRole("button", { name: "Continue with Google" }).click();
      const popup = await popupOpened;
      // The popup goes to the OpenID server, comes back to /auth/callback and closes itself.
      expect((await callbackAnswered).status()).toBe(200);
      await expect.poll(() => popup.isClosed(), { timeout: 20_000 }).toBe(true);
    } else {
      await page.getByRole("button", { name: "Continue with Google" }).click();
    }
    await expect(page).toHaveURL("/home");
    await expect(page.getByText("Welcome!", { exact: true })).toBeVisible();
    await expect(page.getByText("Successfully signed in with Google.", { exact: true })).toBeVisible();
    await expect(accountMenu(page, GOOGLE_TEST_USER.email)).toBeVisible();
    expect((await context.cookies()).some((c) => c.name === "gc_session" && c.httpOnly && c.sameSite === "Lax")).toBe(true);
  });

  test("a forged or refused callback fails with the catalogue's toast", async ({ page }) => {
    for (const query of ["?code=made-up&state=made-up", "?error=access_denied"]) {
      await page.goto(`/auth/callback${query}`);
      await expect(page).toHaveURL(/\/login/);
      await expect(page.getByText("Failed to sign in with Google. Please try again.", { exact: true })).toBeVisible();
      await expect(page.getByText("Error", { exact: true })).toBeVisible();
    }
  });
});

test.describe("email instructions", () => {
  test("'I've Clicked the Link' reloads, support e-mail from site settings", async ({ page }) => {
    await page.goto("/email-instructions");
    await expect(page.getByRole("heading", { level: 1, name: "Check Your Email!" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Back to Home" })).toHaveAttribute("href", "/");
    await expect(page.getByRole("main").getByRole("link", { name: /@/ })).toHaveAttribute("href", /^mailto:/);
    await page.getByRole("link", { name: "I've Clicked the Link" }).click();
    await expect(page).toHaveURL("/email-instructions");
  });
});

test.describe("on a phone", () => {
  // A layout check at one width: the phone itself, in the desktop project (the phone project
  // runs what is checked at both widths).
  const { defaultBrowserType: _, ...pixel7 } = devices["Pixel 7"];
  test.use(pixel7);

  test("signed in with a link, the same address can also sign in with the account menu visible on every page", async ({ page }, testInfo) => {
    const email = uniqueEmail("phone", testInfo);
    await signIn(page, email);
    await page.goto("/quiz");
    await expect(accountMenu(page, email)).toBeVisible();
  });
});
