// «Avisos»: whether this phone receives them (and turning them on here), then one switch per child, with
// school and course; emergencies always ring, as the screen says.
import { useSelector } from '@xstate/react';
import type { FamilyChildNotices } from '../../../shared/family-devices-contract';
import {
  type FamilyNotificationsActor,
  selectChildren,
  selectNotificationsFailure,
  selectNotificationsPhase,
  selectSaveFailure,
  selectSavingStudent,
} from '../../machines/family/notifications';
import { Button } from '../ui/button';
import { Switch } from '../ui/switch';
import { useNotificationsActor } from './devices-actors';
import { useFamilyT } from './family-context';
import { PushHere } from './push-here';

export function NoticesPage({ token }: { token: string }) {
  const t = useFamilyT();
  const notices = useNotificationsActor(token);
  const phase = useSelector(notices, selectNotificationsPhase);
  return (
    <section aria-labelledby="notices-title" aria-busy={phase === 'loading'} className="flex flex-col gap-3">
      <h1 id="notices-title" className="text-xl font-semibold">
        {t('family.devices.notices.title')}
      </h1>
      <p className="text-sm text-muted-foreground">{t('family.devices.notices.intro')}</p>
      <PushHere token={token} />
      <p className="rounded-lg border border-primary/40 bg-card p-3 text-sm font-medium">{t('family.devices.notices.emergencies')}</p>
      {phase === 'loading' ? <p className="text-sm text-muted-foreground">{t('family.app.loading')}</p> : null}
      {phase === 'failed' ? <NoticesFailed notices={notices} /> : null}
      {phase === 'ready' ? <ChildSwitches notices={notices} /> : null}
    </section>
  );
}

function NoticesFailed({ notices }: { notices: FamilyNotificationsActor }) {
  const t = useFamilyT();
  const failure = useSelector(notices, selectNotificationsFailure);
  return (
    <div role="alert" className="rounded-lg border border-destructive/40 bg-card p-4">
      <p>{failure === 'offline' ? t('family.devices.notices.offline') : t('family.devices.notices.error')}</p>
      <Button variant="outline" className="mt-3" onClick={() => notices.send({ type: 'notifications.retry' })}>
        {t('family.devices.notices.retry')}
      </Button>
    </div>
  );
}

function ChildSwitches({ notices }: { notices: FamilyNotificationsActor }) {
  const t = useFamilyT();
  const children = useSelector(notices, selectChildren);
  const saveFailure = useSelector(notices, selectSaveFailure);
  if (children.length === 0) return <p>{t('family.devices.notices.none')}</p>;
  return (
    <>
      <ul className="flex flex-col gap-2">
        {children.map((child) => (
          <ChildSwitch key={child.student_id} notices={notices} child={child} />
        ))}
      </ul>
      {saveFailure ? (
        <p role="alert" className="text-sm text-destructive">
          {saveFailure === 'offline' ? t('family.devices.notices.saveOffline') : t('family.devices.notices.saveError')}
        </p>
      ) : null}
    </>
  );
}

function ChildSwitch({ notices, child }: { notices: FamilyNotificationsActor; child: FamilyChildNotices }) {
  const t = useFamilyT();
  const saving = useSelector(notices, selectSavingStudent);
  const id = `notices-${child.student_id}`;
  const busy = saving === child.student_id;
  return (
    <li className="flex items-center justify-between gap-3 rounded-lg border bg-card p-3">
      <span className="flex flex-col gap-0.5">
        <label htmlFor={id} className="font-medium">
          {t('family.devices.notices.child', { name: child.name })}
        </label>
        <span id={`${id}-detail`} className="text-sm text-muted-foreground">
          {t('family.devices.notices.childDetail', { course: child.course, school: child.school })}
        </span>
        <span className="text-sm" aria-live="polite">
          {busy ? t('family.devices.notices.saving') : child.push ? t('family.devices.notices.on') : t('family.devices.notices.off')}
        </span>
      </span>
      <Switch
        id={id}
        aria-describedby={`${id}-detail`}
        checked={child.push}
        disabled={saving !== null}
        onCheckedChange={(push) => notices.send({ type: 'child.toggle', studentId: child.student_id, push })}
      />
    </li>
  );
}
