// The toaster (react-hot-toast and its markup) is not in the first download, nor mounted before there is
// something to show: its chunk comes with the first toast (edge.ts), and the app mounts it then (app.tsx).
// Toasts asked for meanwhile wait in react-hot-toast's store and show, in the order they were asked, once
// it is mounted.
import { useSyncExternalStore, type ComponentType } from 'react';
import type { ToastKind } from '../../machines/app/effects';
import type { ToastButton } from './toaster';

interface ToasterModule {
  Toaster: ComponentType;
  showToast: (kind: ToastKind, message: string, action?: ToastButton) => void;
}

let loading: Promise<ToasterModule> | null = null;
let loaded: ToasterModule | null = null;
const listeners = new Set<() => void>();

/** The toaster's chunk, once; a failed download (offline a moment) is asked for again by the next toast. */
function loadToaster(): Promise<ToasterModule> {
  loading ??= import('./toaster').then(
    ({ Toaster, showToast }) => {
      loaded = { Toaster, showToast };
      for (const listener of listeners) listener();
      return loaded;
    },
    (error: unknown) => {
      loading = null;
      throw error;
    },
  );
  return loading;
}

/** Shows a toast once the toaster's chunk is there, in the order asked; one whose code cannot load is lost. */
export function showToast(kind: ToastKind, message: string, action?: ToastButton): void {
  loadToaster()
    .then((toaster) => toaster.showToast(kind, message, action))
    .catch(() => undefined);
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const loadedToaster = (): ComponentType | null => loaded?.Toaster ?? null;

/** The toaster to mount: none until the first toast has brought its chunk. */
export function useLoadedToaster(): ComponentType | null {
  return useSyncExternalStore(subscribe, loadedToaster, loadedToaster);
}
