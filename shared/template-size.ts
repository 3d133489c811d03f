// A template's SMS size as its list shows it ("characters and segments after the GSM-7 rule").
// Hermes sends an SMS as one segment (shared/sms-text.ts refuses more); a longer template still says how
// many segments it would take, by GSM-7's concatenation rule (153 units per segment once there are two or
// more), so its author sees how far it is from fitting. Merge fields are counted as typed: with no
// recipient yet, there is no real value to count.
import { SMS_SEGMENT_UNITS, smsText } from './sms-text';

/** Units per segment of a concatenated SMS (7 of the 160 go to the part header). */
const SMS_CONCAT_SEGMENT_UNITS = 153;

export interface TemplateSmsSize {
  /** GSM-7 units of the content (what the counter shows). */
  units: number;
  /** Units one SMS leaves for the content (160, less the signature's). */
  limit: number;
  /** Segments the content and signature take together; 1 is what Hermes sends. */
  segments: number;
  /** Characters SMS cannot carry. */
  unsupported: string[];
  /** Sendable by SMS as it is. */
  ok: boolean;
}

export function templateSmsSize(content: string, signature: string | null): TemplateSmsSize {
  const sms = smsText(content, signature);
  const total = sms.units + (SMS_SEGMENT_UNITS - sms.limit);
  const segments = total <= SMS_SEGMENT_UNITS ? 1 : Math.ceil(total / SMS_CONCAT_SEGMENT_UNITS);
  return { units: sms.units, limit: sms.limit, segments, unsupported: sms.unsupported, ok: sms.ok };
}
