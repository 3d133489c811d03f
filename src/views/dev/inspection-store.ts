import type { InspectionEvent } from 'xstate';

// Dev-only record of live actors, their state and their last events, fed by XState's `inspect` hook.
// Works offline, unlike the Stately inspector.
interface ActorRow {
  id: string;
  state: string;
  events: string[];
}

const MAX_EVENTS = 8;
let rows = new Map<string, ActorRow>();
let snapshot: ActorRow[] = [];
const listeners = new Set<() => void>();

function publish() {
  snapshot = [...rows.values()];
  for (const l of listeners) l();
}

function describeValue(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value && typeof value === 'object') {
    return Object.entries(value)
      .map(([k, v]) => `${k}.${describeValue(v)}`)
      .join(' | ');
  }
  return String(value);
}

export function recordInspection(event: InspectionEvent) {
  const ref = event.actorRef;
  const named = ref as { systemId?: string; id?: string };
  const id = named.systemId ?? named.id ?? ref.sessionId;
  const row = rows.get(ref.sessionId) ?? { id, state: '—', events: [] };
  if (event.type === '@xstate.snapshot') {
    const s = event.snapshot as { value?: unknown; status?: string };
    row.state = s.value !== undefined ? describeValue(s.value) : (s.status ?? '—');
  } else if (event.type === '@xstate.event') {
    row.events = [event.event.type, ...row.events].slice(0, MAX_EVENTS);
  }
  rows = new Map(rows).set(ref.sessionId, { ...row });
  publish();
}

export const inspectionStore = {
  subscribe(listener: () => void) {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  getSnapshot: () => snapshot,
};
