// The words a family texts to stop (or restart) a channel: "BAJA", "STOP", "NO MÁS"… A message is an opt-out
// only when the whole of it is one of them — case, accents, punctuation, emoji and a courtesy ("por favor",
// "gracias") aside — so an ordinary reply that merely contains one ("mi hija está de baja médica", "¿fiebre
// baja?") is a reply, never an opt-out (docs/decisions/0244-opt-out-words.md).

export type OptWord = 'out' | 'in';

// Spanish first; then the English words Twilio already acts on by itself for a long code (STOP, UNSUBSCRIBE,
// END, QUIT, STOPALL, REVOKE, OPTOUT, CANCEL; START, UNSTOP), so Hermes's record agrees with the provider's
// block. Not YES / SÍ: an ordinary answer to a question.
const OUT = [
  'BAJA',
  'DAR DE BAJA',
  'DARME DE BAJA',
  'DE BAJA',
  'STOP',
  'NO MAS',
  'NOMAS',
  'NO MAS MENSAJES',
  'NO MAS SMS',
  'NO MAS WHATSAPP',
  'NO QUIERO MAS MENSAJES',
  'CANCELAR',
  'DETENER',
  'PARAR',
  'STOPALL',
  'STOP ALL',
  'UNSUBSCRIBE',
  'CANCEL',
  'END',
  'QUIT',
  'REVOKE',
  'OPTOUT',
  'OPT OUT',
];
const IN = ['ALTA', 'DAR DE ALTA', 'DARME DE ALTA', 'DE ALTA', 'START', 'UNSTOP'];

const WORDS = new Map<string, OptWord>([...OUT.map((w) => [w, 'out'] as const), ...IN.map((w) => [w, 'in'] as const)]);

/** Said before or after the word and nothing else: "Baja por favor", "STOP gracias". */
const COURTESY = ['POR FAVOR', 'PORFAVOR', 'PORFA', 'PLEASE', 'GRACIAS', 'HOLA'];

/** Longer than any word with its courtesies: a long text is a reply whatever it says. */
const MAX_LENGTH = 60;

/** Upper case, without accents, punctuation or emoji, one space between words. */
function foldWords(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toUpperCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

function withoutCourtesy(words: string): string {
  let rest = ` ${words} `;
  for (let changed = true; changed; ) {
    changed = false;
    for (const c of COURTESY) {
      // Never the whole message: "gracias" alone is a reply.
      if (rest.trim() === c) continue;
      if (rest.startsWith(` ${c} `)) {
        rest = rest.slice(c.length + 1);
        changed = true;
      } else if (rest.endsWith(` ${c} `)) {
        rest = rest.slice(0, rest.length - c.length - 1);
        changed = true;
      }
    }
  }
  return rest.trim();
}

/** Whether the whole message is an opt-out ('out') or opt-in ('in') word; null for anything else. */
export function optWordOf(body: string): OptWord | null {
  if (body.length > MAX_LENGTH) return null;
  return WORDS.get(withoutCourtesy(foldWords(body))) ?? null;
}
