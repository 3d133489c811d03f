// The app edge: where the effects the actors emit meet the browser. Wired once, at start-up (main.tsx;
// view tests call it too), never per component.
import { navigate } from 'wouter/use-browser-location';
import { t } from '../i18n';
import { connectServices, type AppActor } from '../machines/app';
import { showToast } from './layout/toaster';

/** Performs the root's UI effects and plugs the HTTP hooks in; returns the function that undoes both. */
export function connectEdge(app: AppActor): () => void {
  const subscriptions = [
    app.on('navigate', (e) => navigate(e.to, { replace: e.replace ?? false })),
    app.on('toast', (e) => showToast(e.kind, e.message ?? t(e.key, e.params))),
    // After React has rendered the state that shows the target (a field, a button back from a dialog).
    app.on('focus', (e) => setTimeout(() => document.getElementById(e.target)?.focus(), 0)),
  ];
  const disconnect = connectServices(app);
  return () => {
    subscriptions.forEach((subscription) => subscription.unsubscribe());
    disconnect();
  };
}
