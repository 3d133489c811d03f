// Just enough of the two Office containers to tell what is inside, with no dependency: the entry names of
// a ZIP's central directory (docx, xlsx, pptx) and the entry names of an OLE2 compound file's directory
// (doc, xls, ppt). Nothing is decompressed, and every offset is checked against the length: these bytes
// come from whoever uploaded them, and a malformed file is simply "not this container" (null).

const ZIP_LOCAL = 0x04034b50;
const ZIP_CENTRAL = 0x02014b50;
const ZIP_END = 0x06054b50;
const ZIP64_LOCATOR = 0x07064b50;
const ZIP64_END = 0x06064b50;

const OLE_MAGIC = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];
/** Sector numbers above this are markers (free, end of chain, FAT, DIFAT), not sectors. */
const OLE_MAX_SECTOR = 0xfffffffa;
const OLE_END_OF_CHAIN = 0xfffffffe;

const viewOf = (b: Uint8Array) => new DataView(b.buffer, b.byteOffset, b.byteLength);

/** The names in a ZIP archive's central directory, or null when `bytes` is not a well-formed ZIP. */
export function zipEntryNames(bytes: Uint8Array): string[] | null {
  const view = viewOf(bytes);
  if (bytes.length < 22 || view.getUint32(0, true) !== ZIP_LOCAL) return null;
  // The end record is the last 22 bytes plus a comment of at most 64 KiB: search backwards.
  let end = -1;
  for (let at = bytes.length - 22; at >= Math.max(0, bytes.length - 22 - 0xffff); at--) {
    if (view.getUint32(at, true) === ZIP_END && at + 22 + view.getUint16(at + 20, true) <= bytes.length) {
      end = at;
      break;
    }
  }
  if (end < 0) return null;
  let count = view.getUint16(end + 10, true);
  let offset = view.getUint32(end + 16, true);
  if (count === 0xffff || offset === 0xffffffff) {
    // ZIP64: the real numbers are in the ZIP64 end record the locator (just before) points at.
    const locator = end - 20;
    if (locator < 0 || view.getUint32(locator, true) !== ZIP64_LOCATOR) return null;
    const end64 = Number(view.getBigUint64(locator + 8, true));
    if (end64 + 56 > locator || view.getUint32(end64, true) !== ZIP64_END) return null;
    count = Number(view.getBigUint64(end64 + 32, true));
    offset = Number(view.getBigUint64(end64 + 48, true));
  }
  const names: string[] = [];
  const decoder = new TextDecoder();
  let at = offset;
  for (let n = 0; n < count; n++) {
    if (at + 46 > end || view.getUint32(at, true) !== ZIP_CENTRAL) return null;
    const nameEnd = at + 46 + view.getUint16(at + 28, true);
    if (nameEnd > end) return null;
    names.push(decoder.decode(bytes.subarray(at + 46, nameEnd)));
    at = nameEnd + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
  }
  return names;
}

/** The storage and stream names of an OLE2 compound file's directory, or null when it is not one. */
export function oleEntryNames(bytes: Uint8Array): string[] | null {
  if (bytes.length < 512 || !OLE_MAGIC.every((v, i) => bytes[i] === v)) return null;
  const view = viewOf(bytes);
  const shift = view.getUint16(30, true);
  if (shift !== 9 && shift !== 12) return null;
  const size = 1 << shift;
  const perSector = size / 4;
  // Sector n starts after the header, which fills sector-sized room of its own.
  const sectorAt = (n: number) => (n + 1) * size;
  const whole = (n: number) => n <= OLE_MAX_SECTOR && sectorAt(n) + size <= bytes.length;

  // Where the FAT lives: 109 sector numbers in the header, the rest in a chain of DIFAT sectors.
  const fatCount = view.getUint32(44, true);
  if (fatCount > bytes.length / size) return null;
  const fat: number[] = [];
  for (let i = 0; i < 109 && fat.length < fatCount; i++) fat.push(view.getUint32(76 + i * 4, true));
  const seen = new Set<number>();
  for (let s = view.getUint32(68, true); fat.length < fatCount; ) {
    if (!whole(s) || seen.has(s)) return null;
    seen.add(s);
    for (let i = 0; i < perSector - 1 && fat.length < fatCount; i++) fat.push(view.getUint32(sectorAt(s) + i * 4, true));
    s = view.getUint32(sectorAt(s) + size - 4, true);
  }
  const next = (s: number): number | null => {
    const fatSector = fat[Math.floor(s / perSector)];
    return fatSector === undefined || !whole(fatSector) ? null : view.getUint32(sectorAt(fatSector) + (s % perSector) * 4, true);
  };

  // The directory: a chain of sectors of 128-byte entries (UTF-16 name, its byte length, the entry type).
  const names: string[] = [];
  const decoder = new TextDecoder('utf-16le');
  seen.clear();
  for (let s = view.getUint32(48, true); s !== OLE_END_OF_CHAIN; ) {
    if (!whole(s) || seen.has(s)) return null;
    seen.add(s);
    for (let entry = sectorAt(s); entry < sectorAt(s) + size; entry += 128) {
      const type = bytes[entry + 66];
      const length = view.getUint16(entry + 64, true);
      if ((type === 1 || type === 2 || type === 5) && length >= 2 && length <= 64) {
        names.push(decoder.decode(bytes.subarray(entry, entry + length - 2)));
      }
    }
    const following = next(s);
    if (following === null) return null;
    s = following;
  }
  return names;
}
