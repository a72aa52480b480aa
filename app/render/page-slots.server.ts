/**
 * A rendered page kept for serving again, with the parts that differ per response left as
 * slots, filled in for each response:
 *
 * - the CSP nonce (every script and style tag): every response gets a nonce of its own, as a
 *   page rendered fresh would. A nonce that repeats across responses stops being a secret
 *   (anyone can read it from one copy of the page and use it in injected markup), so a stored
 *   page must never replay the one it was rendered with;
 * - an offer's countdown: the seconds left, as the `<time data-countdown>` elements show them
 *   ("9:59", and "PT599S" in their datetime) and as the page's data carries them ("PT599S"),
 *   so the page a visitor sees a second later says one second less, as a render would.
 *
 * Gzip without compressing per response: the text between slots is deflated once, each piece
 * ending on a byte boundary (a sync flush), and a response joins those pieces with the slots'
 * values as stored (uncompressed) blocks, a final empty block and the gzip trailer (CRC-32 and
 * length of the whole page). Deflate allows blocks to be joined like this; only the CRC reads
 * every byte, which costs microseconds.
 */
import zlib from "node:zlib";
import { countdownDuration, formatCountdown } from "~/billing/catalogue";

/** gzip header: magic, deflate, no flags, no mtime, no extra flags, unknown OS. */
const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0, 0, 0, 0, 0x00, 0xff]);
/** A final, empty block with fixed codes: ends the deflate stream. */
const FINAL_BLOCK = Buffer.from([0x03, 0x00]);

function deflatePiece(data: Buffer): Buffer {
  return zlib.deflateRawSync(data, { finishFlush: zlib.constants.Z_SYNC_FLUSH });
}

/** A non-final stored block holding `data` (at most 65,535 bytes), starting on a byte boundary. */
function storedBlock(data: Buffer): Buffer {
  const header = Buffer.alloc(5);
  header.writeUInt16LE(data.length, 1);
  header.writeUInt16LE(~data.length & 0xffff, 3);
  return Buffer.concat([header, data]);
}

/** What one response fills in: its nonce, and the countdown's seconds left when the page has one. */
export type SlotValues = { nonce: string; countdownSeconds?: number };

type SlotKind = "nonce" | "countdown-duration" | "countdown-clock";

function slotText(kind: SlotKind, values: SlotValues): string {
  if (kind === "nonce") return values.nonce;
  const seconds = values.countdownSeconds ?? 0;
  return kind === "countdown-duration" ? countdownDuration(seconds) : formatCountdown(seconds);
}

/** Where the countdown's clock text starts: right after its element's opening tag. */
const CLOCK_TAG = 'data-countdown="true">';

type Cut = { at: number; length: number; kind: SlotKind };

/** Every place `text` occurs in `page`, as cuts of `kind`. */
function occurrences(page: string, text: string, kind: SlotKind): Cut[] {
  const cuts: Cut[] = [];
  if (!text) return cuts;
  for (let at = page.indexOf(text); at !== -1; at = page.indexOf(text, at + text.length)) cuts.push({ at, length: text.length, kind });
  return cuts;
}

export class PageSlots {
  private constructor(
    /** The page's text between slots. */
    private readonly pieces: Buffer[],
    /** What goes between pieces[i] and pieces[i + 1]. */
    private readonly kinds: SlotKind[],
  ) {}

  /** Deflated on the first gzip response, not when stored: many stored pages are never sent gzip. */
  private deflated: Buffer[] | undefined;
  private get deflatedPieces(): Buffer[] {
    this.deflated ??= this.pieces.map(deflatePiece);
    return this.deflated;
  }

  /** Cuts `html` wherever `nonce` occurs (its script and style tags carry it). */
  static fromPage(html: Buffer, nonce: string): PageSlots {
    const text = html.toString("utf8");
    return PageSlots.cut(text, occurrences(text, nonce, "nonce"));
  }

  /**
   * Cuts `html` at its nonce and at its countdown, rendered with `seconds` left: each
   * `<time data-countdown>` element's text and datetime, and the value in the page's data.
   * Undefined when the page shows that value anywhere else (a text that happens to read
   * "PT599S"): then which places are the countdown is not certain, and the page is not kept.
   */
  static withCountdown(html: Buffer, nonce: string, seconds: number): PageSlots | undefined {
    const text = html.toString("utf8");
    const clock = formatCountdown(seconds);
    const clocks = occurrences(text, `${CLOCK_TAG}${clock}<`, "countdown-clock").map((cut) => ({
      ...cut,
      at: cut.at + CLOCK_TAG.length,
      length: clock.length,
    }));
    const durations = occurrences(text, countdownDuration(seconds), "countdown-duration");
    const elements = occurrences(text, CLOCK_TAG, "countdown-clock").length;
    // Each element shows the clock once and the duration once; the page's data holds it once more.
    if (clocks.length !== elements || durations.length !== elements + 1) return undefined;
    return PageSlots.cut(text, [...occurrences(text, nonce, "nonce"), ...clocks, ...durations]);
  }

  private static cut(text: string, cuts: Cut[]): PageSlots {
    cuts.sort((a, b) => a.at - b.at);
    const pieces: Buffer[] = [];
    const kinds: SlotKind[] = [];
    let from = 0;
    for (const cut of cuts) {
      if (cut.at < from) throw new Error("page slots overlap");
      pieces.push(Buffer.from(text.slice(from, cut.at), "utf8"));
      kinds.push(cut.kind);
      from = cut.at + cut.length;
    }
    pieces.push(Buffer.from(text.slice(from), "utf8"));
    return new PageSlots(pieces, kinds);
  }

  /** How many places are filled per response. */
  get slots(): number {
    return this.kinds.length;
  }

  /** Whether the page has a countdown to fill in. */
  get hasCountdown(): boolean {
    return this.kinds.some((kind) => kind !== "nonce");
  }

  private fillers(values: SlotValues): Map<SlotKind, Buffer> {
    const fillers = new Map<SlotKind, Buffer>();
    for (const kind of this.kinds) if (!fillers.has(kind)) fillers.set(kind, Buffer.from(slotText(kind, values), "utf8"));
    return fillers;
  }

  /**
   * The page with `values` in every slot, as the buffers to write in order (writing them
   * corked sends them in one go without copying the page).
   */
  htmlParts(values: SlotValues | string): Buffer[] {
    const fillers = this.fillers(typeof values === "string" ? { nonce: values } : values);
    return this.pieces.flatMap((piece, i) => (i === 0 ? [piece] : [fillers.get(this.kinds[i - 1])!, piece]));
  }

  /** The same page, gzip-encoded, built from the pieces deflated in advance. */
  gzipParts(values: SlotValues | string): Buffer[] {
    const fillers = this.fillers(typeof values === "string" ? { nonce: values } : values);
    const blocks = new Map([...fillers].map(([kind, filler]) => [kind, storedBlock(filler)]));
    const parts: Buffer[] = [GZIP_HEADER];
    let crc = 0;
    let length = 0;
    this.pieces.forEach((piece, i) => {
      if (i > 0) {
        const kind = this.kinds[i - 1];
        const filler = fillers.get(kind)!;
        parts.push(blocks.get(kind)!);
        crc = zlib.crc32(filler, crc);
        length += filler.length;
      }
      parts.push(this.deflatedPieces[i]);
      crc = zlib.crc32(piece, crc);
      length += piece.length;
    });
    const trailer = Buffer.alloc(8);
    trailer.writeUInt32LE(crc >>> 0, 0);
    trailer.writeUInt32LE(length >>> 0, 4);
    parts.push(FINAL_BLOCK, trailer);
    return parts;
  }

  html(values: SlotValues | string): Buffer {
    return Buffer.concat(this.htmlParts(values));
  }

  gzip(values: SlotValues | string): Buffer {
    return Buffer.concat(this.gzipParts(values));
  }
}
