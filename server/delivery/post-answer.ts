// How every SMS / WhatsApp adapter calls its provider: one POST cut at a deadline (or when the engine stops),
// answered by its status and JSON body. No answer at all (network error, timeout, shutdown) is null: each
// adapter decides what that means for its provider (retry, or look for the round it may have taken).

export type ProviderFetch = (request: Request) => Promise<Response>;

export interface ProviderAnswer {
  status: number;
  /** The body as JSON; null when it is not JSON. */
  answer: unknown;
}

export async function postForAnswer(
  doFetch: ProviderFetch,
  url: string,
  init: { headers: Record<string, string>; body: string },
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<ProviderAnswer | null> {
  const timeout = AbortSignal.timeout(timeoutMs);
  const request = new Request(url, {
    method: 'POST',
    headers: { Accept: 'application/json', ...init.headers },
    body: init.body,
    signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
  });
  try {
    const response = await doFetch(request);
    return { status: response.status, answer: await response.json().catch(() => null) };
  } catch {
    return null;
  }
}
