// Failures that say nothing about a family's phone: our provider down, or refusing our credentials, sender,
// account or WhatsApp template; and WhatsApp's 24-hour window, closed because the message needed a template
// the school had not set up. The device status and connectivity's course page leave them out alike.

/** Error codes of failures on our side (server/delivery/{provider,twilio,meta}). */
export const OUR_SIDE_ERRORS = ['unreachable', 'provider_auth', 'provider_config', 'provider_account', 'provider_template'] as const;

/** Never a fault of the phone, whatever status the provider gave the delivery. */
export const NOT_THE_PHONE_ERRORS = ['missing_address', 'opted_out', 'person_blocked', 'whatsapp_window'] as const;

/** `('a', 'b')` for an SQL `in`: the codes are ours, never input. */
export const sqlList = (codes: readonly string[]): string => `(${codes.map((code) => `'${code}'`).join(', ')})`;
