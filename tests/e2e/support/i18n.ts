// The browser tests' texts: the shared fixture (tests/fixtures/texts.ts) under the names the specs use.
export { exactly, text as t, textMX as tMX, translate, type LocaleCode, type MessageKey } from '../../fixtures/texts';
