/**
 * A rendered page kept for serving again, with its CSP nonce left as a slot: every response
 * gets a nonce of its own, as a page rendered fresh would. A nonce that repeats across
 * responses stops being a secret (anyone can read it from one copy of the page and use it in
 * injected markup), so a stored page must never replay the one it was rendered with.
 *
 * Gzip without compressing per response: the text between nonces is deflated once, each
 * piece ending on a byte boundary (a sync flush), and a response joins those pieces with the
 * nonce as a stored (uncompressed) block, a final empty block and the gzip trailer (CRC-32
 * and length of the whole page). Deflate allows blocks to be joined like this; only the CRC
 * reads every byte, which costs microseconds.
 */
import zlib from "node:zlib";

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

export class NonceSlots {
  private constructor(
    /** The page's text between nonce occurrences. */
    private readonly pieces: Buffer[],
  ) {}

  /** Deflated on the first gzip response, not when stored: many stored pages are never sent gzip. */
  private deflated: Buffer[] | undefined;
  private get deflatedPieces(): Buffer[] {
    this.deflated ??= this.pieces.map(deflatePiece);
    return this.deflated;
  }

  /** Cuts `html` wherever `nonce` occurs (its script and style tags carry it). */
  static fromPage(html: Buffer, nonce: string): NonceSlots {
    const pieces = html
      .toString("utf8")
      .split(nonce)
      .map((piece) => Buffer.from(piece, "utf8"));
    return new NonceSlots(pieces);
  }

  /** How many places the nonce fills. */
  get slots(): number {
    return this.pieces.length - 1;
  }

  /**
   * The page with `nonce` in every slot, as the buffers to write in order (writing them
   * corked sends them in one go without copying the page).
   */
  htmlParts(nonce: string): Buffer[] {
    const filler = Buffer.from(nonce, "utf8");
    return this.pieces.flatMap((piece, i) => (i === 0 ? [piece] : [filler, piece]));
  }

  /** The same page, gzip-encoded, built from the pieces deflated in advance. */
  gzipParts(nonce: string): Buffer[] {
    const filler = Buffer.from(nonce, "utf8");
    const deflatedFiller = storedBlock(filler);
    const parts: Buffer[] = [GZIP_HEADER];
    let crc = 0;
    let length = 0;
    this.pieces.forEach((piece, i) => {
      if (i > 0) {
        parts.push(deflatedFiller);
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

  html(nonce: string): Buffer {
    return Buffer.concat(this.htmlParts(nonce));
  }

  gzip(nonce: string): Buffer {
    return Buffer.concat(this.gzipParts(nonce));
  }
}
