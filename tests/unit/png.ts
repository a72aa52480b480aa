/**
 * Small PNGs in memory, for tests: `png` makes one (`width`×`height`, a two-colour split so a
 * crop is visible), `readPng` reads one back to its pixels, and `cropPng` cuts a rectangle out
 * of one as Sanity's image CDN does for `rect=left,top,width,height` (the fake CDN uses it).
 * 8-bit RGB and RGBA only, without interlacing: what these tests make.
 */
import zlib from "node:zlib";

type Rgb = [number, number, number];
const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(4);
  head.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(body));
  return Buffer.concat([head, body, crc]);
}

/** Pixels as rows of `channels` bytes each (3: RGB, 4: RGBA). */
export type Pixels = { width: number; height: number; channels: 3 | 4; data: Buffer };

function encode({ width, height, channels, data }: Pixels): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, channels === 4 ? 6 : 2, 0, 0, 0], 8); // 8-bit, no interlace
  const stride = width * channels;
  // Each row with filter type 0 (none).
  const rows = Buffer.concat(Array.from({ length: height }, (_, y) => Buffer.concat([Buffer.from([0]), data.subarray(y * stride, (y + 1) * stride)])));
  return Buffer.concat([SIGNATURE, chunk("IHDR", header), chunk("IDAT", zlib.deflateSync(rows)), chunk("IEND", Buffer.alloc(0))]);
}

export function png(width: number, height: number, left: Rgb = [246, 224, 225], right: Rgb = [232, 199, 176]): Buffer {
  const data = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) data.set(x < width / 2 ? left : right, (y * width + x) * 3);
  return encode({ width, height, channels: 3, data });
}

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const [pa, pb, pc] = [Math.abs(p - a), Math.abs(p - b), Math.abs(p - c)];
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

/** A PNG's pixels (8-bit RGB or RGBA, not interlaced); throws on anything else. */
export function readPng(file: Buffer): Pixels {
  if (!file.subarray(0, 8).equals(SIGNATURE)) throw new Error("not a PNG");
  let width = 0;
  let height = 0;
  let channels: 3 | 4 = 3;
  const idat: Buffer[] = [];
  for (let at = 8; at < file.length;) {
    const length = file.readUInt32BE(at);
    const type = file.toString("latin1", at + 4, at + 8);
    const data = file.subarray(at + 8, at + 8 + length);
    if (type === "IHDR") {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
      if (data[8] !== 8 || (data[9] !== 2 && data[9] !== 6) || data[12] !== 0) throw new Error("only 8-bit RGB(A) PNGs without interlacing");
      channels = data[9] === 6 ? 4 : 3;
    } else if (type === "IDAT") idat.push(data);
    at += 12 + length;
  }
  const raw = zlib.inflateSync(Buffer.concat(idat));
  const stride = width * channels;
  const out = Buffer.alloc(stride * height);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    for (let x = 0; x < stride; x++) {
      const a = x >= channels ? out[y * stride + x - channels] : 0;
      const b = y > 0 ? out[(y - 1) * stride + x] : 0;
      const c = x >= channels && y > 0 ? out[(y - 1) * stride + x - channels] : 0;
      const predictor = [0, a, b, (a + b) >> 1, paeth(a, b, c)][filter];
      if (predictor === undefined) throw new Error(`unknown PNG filter ${filter}`);
      out[y * stride + x] = (line[x] + predictor) & 0xff;
    }
  }
  return { width, height, channels, data: out };
}

/** The colour at (x, y). */
export function pixelAt({ width, channels, data }: Pixels, x: number, y: number): number[] {
  const at = (y * width + x) * channels;
  return [...data.subarray(at, at + 3)];
}

/** The part of a PNG inside `rect` (pixels: left, top, width, height), as a PNG. */
export function cropPng(file: Buffer, rect: { left: number; top: number; width: number; height: number }): Buffer {
  const image = readPng(file);
  if (rect.left < 0 || rect.top < 0 || rect.width < 1 || rect.height < 1 || rect.left + rect.width > image.width || rect.top + rect.height > image.height)
    throw new Error(`rect ${JSON.stringify(rect)} is outside the ${image.width}×${image.height} image`);
  const stride = image.width * image.channels;
  const rows = Array.from({ length: rect.height }, (_, y) => {
    const start = (rect.top + y) * stride + rect.left * image.channels;
    return image.data.subarray(start, start + rect.width * image.channels);
  });
  return encode({ width: rect.width, height: rect.height, channels: image.channels, data: Buffer.concat(rows) });
}
