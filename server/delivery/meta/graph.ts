// How Hermes calls Meta's Graph API: `{graph}/{version}/{path}` with the system user's bearer token.
import type { MetaWhatsappConfig } from '../../config';

/** What the adapter, the media download and the webhook need of the settings. */
export type GraphSettings = Pick<MetaWhatsappConfig, 'graphUrl' | 'graphVersion' | 'token'>;

export type GraphFetch = (request: Request) => Promise<Response>;

export const graphUrl = (graph: GraphSettings, path: string): string => `${graph.graphUrl}/${graph.graphVersion}/${path}`;

export const bearer = (graph: GraphSettings): Record<string, string> => ({ Authorization: `Bearer ${graph.token}` });

/** `error.code` of a Graph error answer (`{ error: { code, message, … } }`); null without one. */
export function graphErrorCode(answer: unknown): number | null {
  const error = typeof answer === 'object' && answer !== null ? (answer as { error?: unknown }).error : undefined;
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return typeof code === 'number' && Number.isInteger(code) ? code : null;
}
