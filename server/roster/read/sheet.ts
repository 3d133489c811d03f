// What every file type becomes before the roster is read from it: its non-blank rows of text cells, each
// with the line a spreadsheet shows it on (title and header rows counted, blank lines skipped but counted).

export interface SheetRow {
  /** 1-based, as a spreadsheet numbers it. */
  line: number;
  cells: string[];
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is stripped.
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u200b\u200e\u200f\ufeff]/g;

/** A cell as stored: control characters out (a tab or line break inside a quoted cell is a space), spaces collapsed, trimmed. */
export function cleanCell(raw: string): string {
  return raw.replace(CONTROL, ' ').replace(/\s+/g, ' ').trim();
}

export function isBlank(cells: readonly string[]): boolean {
  return cells.every((c) => c === '');
}
