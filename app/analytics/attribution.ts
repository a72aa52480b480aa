/**
 * Where a visitor came from, read from the URL they landed on and the Referer header.
 * Pure: load-context.server.ts stores the result once per visitor.
 */

export type Attribution = {
  landingPath: string;
  referrer: string | null;
  utmSource: string | null;
  utmMedium: string | null;
  utmCampaign: string | null;
  utmTerm: string | null;
  utmContent: string | null;
};

const UTM_FIELDS = [
  ["utm_source", "utmSource"],
  ["utm_medium", "utmMedium"],
  ["utm_campaign", "utmCampaign"],
  ["utm_term", "utmTerm"],
  ["utm_content", "utmContent"],
] as const;

/** Values come from anyone's URL: keep them short and printable. */
const MAX_VALUE = 200;
function clean(value: string | null | undefined): string | null {
  if (!value) return null;
  // eslint-disable-next-line no-control-regex
  const printable = value.replace(/[\u0000-\u001f\u007f]/g, "").trim();
  return printable ? printable.slice(0, MAX_VALUE) : null;
}

/** The referrer's origin and path (no query: it may hold someone's search or tokens), when it is another site. */
function externalReferrer(referer: string | null | undefined, ownOrigins: string[]): string | null {
  if (!referer) return null;
  let url: URL;
  try {
    url = new URL(referer);
  } catch {
    return null;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return null;
  if (ownOrigins.includes(url.origin)) return null;
  return clean(`${url.origin}${url.pathname === "/" ? "" : url.pathname}`);
}

/**
 * The attribution of a landing, or null when it carries none (no UTM parameter and no
 * referrer from another site): such a request is not worth a database write.
 */
export function landingAttribution(input: { url: string; referer?: string | null; ownOrigins: string[] }): Attribution | null {
  let url: URL;
  try {
    url = new URL(input.url);
  } catch {
    return null;
  }
  const utm = Object.fromEntries(UTM_FIELDS.map(([param, field]) => [field, clean(url.searchParams.get(param))])) as Pick<
    Attribution,
    (typeof UTM_FIELDS)[number][1]
  >;
  const referrer = externalReferrer(input.referer, [...input.ownOrigins, url.origin]);
  if (!referrer && Object.values(utm).every((v) => v === null)) return null;
  // Remix's data requests (/x.data) stand for the page /x.
  const landingPath = clean(url.pathname.replace(/\.data$/, "").replace(/^\/_root$/, "/")) ?? "/";
  return { landingPath, referrer, ...utm };
}
