/**
 * Reads a URL-encoded form body with a size limit, before anything is parsed or stored.
 */
export const MAX_FORM_BYTES = 64 * 1024;

export type FormRead = { ok: true; entries: [string, string][] } | { ok: false; status: 400 | 415; error: string };

export async function readFormEntries(request: Request, maxBytes = MAX_FORM_BYTES): Promise<FormRead> {
  const tooLarge = { ok: false, status: 400, error: "That request was too large. Please try again." } as const;
  const type = request.headers.get("Content-Type")?.split(";")[0].trim().toLowerCase();
  if (type !== "application/x-www-form-urlencoded") {
    return { ok: false, status: 415, error: "Please submit the form from the page." };
  }
  const text = await readBodyText(request, maxBytes);
  if (text === null) return tooLarge;
  return { ok: true, entries: [...new URLSearchParams(text).entries()] };
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

/** Named fields of a form, one value each (a repeated field keeps its first value). */
export function fieldsOf(entries: [string, string][]): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const [name, value] of entries) if (!(name in fields)) fields[name] = value;
  return fields;
}
