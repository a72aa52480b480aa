/**
 * The one way a form reaches the app: the body is read with a size limit (nothing larger is
 * held in memory), must be a URL-encoded form (what an HTML form sends, with or without
 * JavaScript), and is parsed and validated by Conform against the form's zod schema. Every
 * action answers a refused form with Conform's `SubmissionResult` (`submission.reply()`): one
 * shape for field errors, form errors and the values typed, which `useForm` shows again.
 */
import { data } from "@remix-run/node";
import { parse, type Submission, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { $ZodType, input as Input, output as Output } from "zod/v4/core";
import { now } from "./clock.server";
import type { Refusal } from "./outcome";

export const MAX_FORM_BYTES = 64 * 1024;

export const FORM_TOO_LARGE = "That request was too large. Please try again.";
export const FORM_NOT_FROM_PAGE = "Please submit the form from the page.";

export type FormBody = { ok: true; params: URLSearchParams } | { ok: false; status: 400 | 415; error: string };

/** The body of a URL-encoded form, read up to `maxBytes`. */
export async function readFormBody(request: Request, maxBytes = MAX_FORM_BYTES): Promise<FormBody> {
  const type = request.headers.get("Content-Type")?.split(";")[0].trim().toLowerCase();
  if (type !== "application/x-www-form-urlencoded") return { ok: false, status: 415, error: FORM_NOT_FROM_PAGE };
  const text = await readBodyText(request, maxBytes);
  if (text === null) return { ok: false, status: 400, error: FORM_TOO_LARGE };
  return { ok: true, params: new URLSearchParams(text) };
}

export type ParsedForm<Schema extends $ZodType> = {
  submission: Submission<Input<Schema>, string[], Output<Schema>>;
  /** The status to answer with when the submission is not a success: 400, or 415 for a body that is not a form. */
  status: 400 | 415;
};

/**
 * Reads and validates a form. A body that is too large or not a form comes back as a failed
 * submission with that message as the form's error, so every action has one path for
 * "refused". `schema` may depend on the request (a funnel step's own questions).
 */
export async function parseForm<Schema extends $ZodType>(request: Request, schema: Schema, maxBytes = MAX_FORM_BYTES): Promise<ParsedForm<Schema>> {
  const body = await readFormBody(request, maxBytes);
  if (!body.ok) return { submission: refusedSubmission(body.error), status: body.status };
  // Pages validate on the server when the form is sent, so none sends Conform's own control
  // fields (a client-side validate or list intent): a body with them did not come from a page,
  // and Conform would throw on one it cannot read.
  if (CONFORM_CONTROL_FIELDS.some((name) => body.params.has(name))) return { submission: refusedSubmission(FORM_NOT_FROM_PAGE), status: 400 };
  const submission = parseWithZod(body.params, { schema });
  if (submission.status === "error" && submission.error) showButtonErrorsOnForm(submission.error);
  return { submission, status: 400 };
}

const CONFORM_CONTROL_FIELDS = ["__intent__", "__state__"];

/** A submission refused before its fields were read: `message` is the form's error. */
function refusedSubmission<Schema extends $ZodType>(message: string): ParsedForm<Schema>["submission"] {
  return parse(new URLSearchParams(), { resolve: () => ({ error: { "": [message] } }) }) as ParsedForm<Schema>["submission"];
}

/**
 * `intent` is the button that was pressed: there is no field to show its error beside, so
 * its error (an unknown action) is shown as the form's.
 */
function showButtonErrorsOnForm(error: Record<string, string[] | null>) {
  const buttonErrors = error.intent;
  if (!buttonErrors?.length) return;
  error[""] = [...(error[""] ?? []), ...buttonErrors];
  delete error.intent;
}

/**
 * A domain refusal as the form's answer: its message beside its field (or above the form),
 * the status it names, and `Retry-After` for a limit. `hideFields` keeps secrets (passwords)
 * out of the values sent back.
 */
export function replyRefused(submission: { reply: Submission<unknown>["reply"] }, refused: Refusal, options: { hideFields?: string[] } = {}) {
  const reply: SubmissionResult = refused.field
    ? submission.reply({ fieldErrors: { [refused.field]: [refused.message] }, hideFields: options.hideFields })
    : submission.reply({ formErrors: [refused.message], hideFields: options.hideFields });
  const headers: HeadersInit = refused.retryAt ? { "Retry-After": String(retryAfterSeconds(refused.retryAt)) } : {};
  return data(reply, { status: refused.status, headers });
}

/**
 * The request body as text, or null when it is (or declares itself) larger than `maxBytes`:
 * reading stops at the limit, so an oversized body is never held in memory.
 */
export async function readBodyText(request: Request, maxBytes: number): Promise<string | null> {
  if (Number(request.headers.get("Content-Length") ?? "0") > maxBytes) return null;
  if (!request.body) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => {});
      return null;
    }
    chunks.push(value);
  }
  return new TextDecoder().decode(Buffer.concat(chunks));
}

/** Seconds until `retryAt`, at least 1: the Retry-After header of a refusal that names when to try again. */
function retryAfterSeconds(retryAt: Date): number {
  return Math.max(1, Math.ceil((retryAt.getTime() - now().getTime()) / 1000));
}
