// How people read a phone number, on every screen and in the CSV exports: the stored E.164 value
// ("+56997473752") written the international way, grouped as its country writes it ("+56 9 9747 3752").
// The "min" metadata is enough to format; telling mobiles from landlines (server/recipients/phone.ts) needs "max".
import { parsePhoneNumberFromString } from 'libphonenumber-js/min';

/** "+56 9 9747 3752" for a stored number; the stored value itself when it does not parse. */
export function formatPhone(phone: string): string {
  return parsePhoneNumberFromString(phone)?.formatInternational() ?? phone;
}
