// A CSV's bytes as text. Excel in Spanish saves "CSV (delimitado por comas)" as Windows-1252 and "CSV UTF-8"
// with a byte-order mark; "Texto Unicode" is UTF-16 with its mark. Bytes that are not valid UTF-8 are read
// as Windows-1252 (every byte is a character there, so "Ñuñoa" survives).

export function decodeText(bytes: Uint8Array): string {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes.subarray(2));
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes.subarray(2));
  const body = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? bytes.subarray(3) : bytes;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(body);
  } catch {
    return new TextDecoder('windows-1252').decode(body);
  }
}

/**
 * A binary file renamed .csv: a NUL, or control characters in more than one place of twenty (a stray one
 * pasted into a cell is stripped later, not a reason to refuse the file).
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: these control characters tell a binary file from text.
const CONTROL = /[\u0000-\u0008\u000e-\u001a\u001c-\u001f]/g;

export function looksBinary(text: string): boolean {
  const sample = text.slice(0, 64 * 1024);
  return sample.includes('\u0000') || (sample.match(CONTROL)?.length ?? 0) * 20 > sample.length;
}
