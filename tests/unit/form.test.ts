import { describe, expect, it } from "vitest";
import { z } from "zod";
import { MAX_FORM_BYTES, parseForm, readFormBody } from "~/utils/form.server";

async function entriesOf(request: Request) {
  const body = await readFormBody(request);
  return body.ok ? { ok: true, entries: [...body.params.entries()] } : body;
}

function post(body: BodyInit, headers: Record<string, string> = { "Content-Type": "application/x-www-form-urlencoded" }) {
  return new Request("http://localhost/quiz/1", { method: "POST", body, headers, duplex: "half" } as RequestInit);
}

describe("reading a form body", () => {
  it("returns the fields in order, repeated ones included", async () => {
    expect(await entriesOf(post("a=1&b=2&a=3"))).toEqual({
      ok: true,
      entries: [
        ["a", "1"],
        ["b", "2"],
        ["a", "3"],
      ],
    });
  });

  it("refuses a body over 64 KB without reading it all", async () => {
    const result = await entriesOf(post(`skinType=${"a".repeat(MAX_FORM_BYTES)}`));
    expect(result).toEqual({ ok: false, status: 400, error: "That request was too large. Please try again." });
  });

  it("refuses a streamed body that grows past the limit", async () => {
    const chunk = new TextEncoder().encode("a".repeat(16 * 1024));
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent++ < 10) controller.enqueue(chunk);
        else controller.close();
      },
    });
    const result = await entriesOf(post(stream));
    expect(result.ok).toBe(false);
    expect(sent).toBeLessThan(10);
  });

  it("refuses bodies that are not URL-encoded forms", async () => {
    expect(await entriesOf(post('{"skinType":"dry"}', { "Content-Type": "application/json" }))).toMatchObject({ ok: false, status: 415 });
  });
});

describe("parsing a form with Conform", () => {
  const Form = z.object({ email: z.string({ error: "Please enter your e-mail address." }) });

  it("refuses Conform's control fields, which no page sends, instead of failing on them", async () => {
    for (const body of ["__intent__=x&email=a", "__state__=%7B&email=a", '__intent__={"type":"validate","payload":{}}&email=a']) {
      const { submission, status } = await parseForm(post(body), Form);
      expect(status, body).toBe(400);
      expect(submission.reply().error, body).toEqual({ "": ["Please submit the form from the page."] });
    }
  });

  it("reads a plain form", async () => {
    const { submission } = await parseForm(post("email=a%40example.com"), Form);
    expect(submission.status === "success" && submission.value).toEqual({ email: "a@example.com" });
  });
});
