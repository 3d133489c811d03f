// What a provider's webhook hands Hermes when a family writes: an SMS or WhatsApp message from a phone.
// The provider adapters (Twilio, Meta's Cloud API, a gateway of the own provider API) parse their own wire
// format into this; the inbound domain (threading into a reply, the school's inbox, opt-out words) takes it
// from here, whoever sent it.

export interface InboundMedia {
  /** As the provider names it (`image/jpeg`); checked again against the bytes' limits when kept. */
  contentType: string;
  /** A file name when the provider gives one. */
  filename: string | null;
  /** Fetches the bytes with the provider's credentials (Twilio's media URL, Meta's media id, a gateway's URL). */
  download(signal?: AbortSignal): Promise<Buffer>;
}

export interface InboundMessage {
  channel: 'sms' | 'whatsapp';
  /**
   * The family's phone, E.164 (`+56987654321`), without the provider's `whatsapp:` prefix, as the provider
   * gives it: the handler keeps it as Hermes keeps guardians' numbers (WhatsApp's `+521…` as `+52…`).
   */
  from: string;
  /**
   * Which provider it came through, for the record and its media credentials: `gateway` is a gateway of the
   * own provider API (docs/provider-api.md), the built-in simulator included.
   */
  provider: 'twilio' | 'meta' | 'gateway';
  /** The provider's own id of the message: a repeated webhook is recognised by it and ignored. */
  providerId: string;
  body: string;
  /** When the provider says it was sent (arrival time when it does not say). */
  receivedAt: Date;
  media: InboundMedia[];
}

/**
 * Another request is handling this same message right now (a provider's repeat that came early): the webhook
 * answers 503 with Retry-After, so the provider brings it again and it is lost neither if that handling
 * fails nor if it succeeds.
 */
export class InboundBusy extends Error {
  constructor(readonly providerId: string) {
    super(`El mensaje entrante ${providerId} se está procesando en otra solicitud`);
    this.name = 'InboundBusy';
  }
}

/** Seconds a provider is asked to wait (Retry-After) before it brings again a message still being handled. */
export const INBOUND_BUSY_RETRY_AFTER = '10';

/** What a provider's 503 says when a message is still being handled (the routes that answer in JSON). */
export const INBOUND_BUSY_MESSAGE = 'El mensaje se está procesando en otra solicitud; envíelo de nuevo en unos segundos.';

/**
 * Takes an inbound message once it is authenticated and parsed; resolves when it is safely recorded (or was
 * already), rejects with InboundBusy while another request is still handling it.
 */
export type InboundHandler = (message: InboundMessage) => Promise<void>;
