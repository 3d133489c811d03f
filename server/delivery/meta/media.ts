// A family's photo or document, fetched from Meta when the inbound handler keeps it: the media id gives a
// short-lived URL (`GET {graph}/{version}/{media-id}` → `{ url, mime_type, … }`), and that URL the bytes, both
// with the bearer token.
import type { InboundMedia } from '../../inbound/contract';
import { readMediaBody } from '../media-download';
import { bearer, type GraphFetch, type GraphSettings, graphUrl } from './graph';

export function metaMedia(
  graph: GraphSettings,
  media: { id: string; contentType: string; filename: string | null },
  doFetch: GraphFetch = (request) => fetch(request),
): InboundMedia {
  return {
    contentType: media.contentType,
    filename: media.filename,
    async download(signal) {
      const init = { headers: bearer(graph), ...(signal ? { signal } : {}) };
      const found = await doFetch(new Request(graphUrl(graph, encodeURIComponent(media.id)), init));
      if (!found.ok) throw new Error(`Meta no entregó la dirección del archivo (HTTP ${found.status})`);
      const { url } = (await found.json()) as { url?: unknown };
      if (typeof url !== 'string' || !/^https?:\/\//.test(url)) throw new Error('Meta no entregó la dirección del archivo');
      const file = await doFetch(new Request(url, init));
      if (!file.ok) throw new Error(`Meta no entregó el archivo (HTTP ${file.status})`);
      // Read no further than one byte past the largest attachment, whatever Content-Length says.
      return readMediaBody(file);
    },
  };
}
