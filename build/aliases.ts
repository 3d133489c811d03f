// Module aliases both builds share (the staff SPA's vite.config.ts and the families' vite.family.config.ts).
import type { Alias } from 'vite';

// React 19 has useSyncExternalStore: the shim that @xstate/react and wouter import for React 17 is not
// downloaded (bench section (a)).
export const REACT_19_ALIASES: Alias[] = [
  { find: /^use-sync-external-store\/shim\/with-selector(\.js)?$/, replacement: 'use-sync-external-store/with-selector.js' },
  { find: /^use-sync-external-store\/shim(\/index\.js)?$/, replacement: 'react' },
];
