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
  const declared = Number(request.headers.get("Content-Length") ?? "0");
  if (declared > maxBytes) return tooLarge;
  if (!request.body) return { ok: true, entries: [] };

  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => {});
      return tooLarge;
    }
    chunks.push(value);
  }
  const text = new TextDecoder().decode(Buffer.concat(chunks));
  return { ok: true, entries: [...new URLSearchParams(text).entries()] };
}

/** Named fields of a form, one value each (a repeated field keeps its first value). */
export function fieldsOf(entries: [string, string][]): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const [name, value] of entries) if (!(name in fields)) fields[name] = value;
  return fields;
}
