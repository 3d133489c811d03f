import { useState, useSyncExternalStore } from 'react';
import { useT } from '../lib/i18n';
import { Button } from '../ui/button';
import { inspectionStore } from './inspection-store';

/** Dev builds only: a floating list of live actors, their state and last events (toggle with Alt+Shift+A). */
export function ActorPanel() {
  const t = useT();
  const rows = useSyncExternalStore(inspectionStore.subscribe, inspectionStore.getSnapshot);
  const [open, setOpen] = useState(false);
  if (!open) {
    return (
      <Button
        variant="outline"
        size="sm"
        accessKey="a"
        className="fixed right-4 bottom-4 z-50 opacity-70 hover:opacity-100"
        onClick={() => setOpen(true)}
      >
        {t('dev.panel')} ({rows.length})
      </Button>
    );
  }
  return (
    <aside
      aria-label={t('dev.panel')}
      className="fixed right-4 bottom-4 z-50 max-h-[60vh] w-96 overflow-auto rounded-lg border bg-card p-3 text-xs shadow-xl"
    >
      <div className="mb-2 flex items-center justify-between">
        <strong>{t('dev.panel')}</strong>
        <Button variant="ghost" size="sm" onClick={() => setOpen(false)}>
          {t('dev.close')}
        </Button>
      </div>
      <table className="w-full text-left">
        <thead>
          <tr>
            <th className="pr-2">id</th>
            <th className="pr-2">{t('dev.state')}</th>
            <th>{t('dev.events')}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.id + r.state} className="border-t align-top">
              <td className="pr-2 font-mono">{r.id}</td>
              <td className="pr-2 font-mono">{r.state}</td>
              <td className="font-mono text-muted-foreground">{r.events.join(', ')}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </aside>
  );
}
