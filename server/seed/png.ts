// A small valid PNG built byte by byte (no image library): a colour band with a lighter stripe, enough for
// the demo news wall's pictures and for tests that upload an image. Node only (node:zlib).
import { crc32, deflateSync } from 'node:zlib';

function chunk(type: string, data: Uint8Array): Buffer {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'ascii');
  Buffer.from(data).copy(out, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}

/** An RGB PNG of `width`×`height`, `rgb` with a lighter horizontal stripe across the middle third. */
export function pngImage(width: number, height: number, rgb: [number, number, number]): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // truecolour
  const raw = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y += 1) {
    const row = y * (width * 3 + 1);
    const light = y >= height / 3 && y < (2 * height) / 3;
    for (let x = 0; x < width; x += 1) {
      for (let c = 0; c < 3; c += 1) raw[row + 1 + x * 3 + c] = light ? Math.min(255, rgb[c]! + 80) : rgb[c]!;
    }
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', new Uint8Array(0)),
  ]);
}
