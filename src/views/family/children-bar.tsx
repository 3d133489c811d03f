// The guardian's children as links above the inbox: «Todos» and one per child (name, school · course,
// unread count). The chosen one is in the address (`?hijo=`), so reload and back keep it.
import { useSelector } from '@xstate/react';
import { Link } from 'wouter';
import type { FamilyChild } from '../../../shared/family-contract';
import { type FamilyChildrenActor, selectChildren, selectChildrenFailed } from '../../machines/family/children';
import { Button } from '../ui/button';
import { cn } from '../lib/utils';
import { useFamilyT } from './family-context';
import { inboxHref } from './inbox-address';

const chip = cn(
  'flex min-w-0 max-w-full flex-col rounded-lg border bg-card px-3 py-2 text-left outline-none hover:bg-accent',
  'focus-visible:ring-[3px] focus-visible:ring-ring/40 aria-[current=page]:border-primary aria-[current=page]:bg-secondary',
);

export function ChildrenBar({ actor, student }: { actor: FamilyChildrenActor; student: number | null }) {
  const t = useFamilyT();
  const children = useSelector(actor, selectChildren);
  const failed = useSelector(actor, selectChildrenFailed);
  if (failed) {
    return (
      <div role="alert" className="flex flex-wrap items-center gap-2 text-sm">
        <p>{t('family.children.failed')}</p>
        <Button variant="outline" size="sm" onClick={() => actor.send({ type: 'children.retry' })}>
          {t('family.children.retry')}
        </Button>
      </div>
    );
  }
  // One child: the inbox is theirs already, nothing to choose.
  if (children.length < 2) return children[0] ? <ChildLine child={children[0]} /> : null;
  return (
    <nav aria-label={t('family.children.listLabel')}>
      <ul className="flex flex-wrap gap-2">
        <li>
          <Link href={inboxHref(null)} aria-current={student === null ? 'page' : undefined} className={chip}>
            <span className="font-medium">{t('family.children.all')}</span>
            <span className="text-xs text-muted-foreground">{t('family.children.allHint')}</span>
          </Link>
        </li>
        {children.map((child) => (
          <li key={child.id} className="min-w-0">
            <Link href={inboxHref(child.id)} aria-current={student === child.id ? 'page' : undefined} className={chip}>
              <ChildText child={child} />
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

function ChildLine({ child }: { child: FamilyChild }) {
  return (
    <p className="flex flex-col text-sm">
      <ChildText child={child} />
    </p>
  );
}

function ChildText({ child }: { child: FamilyChild }) {
  const t = useFamilyT();
  return (
    <>
      <span className="flex flex-wrap items-center gap-2 font-medium break-words">
        {child.name}
        {child.unread > 0 ? (
          <span className="rounded-full bg-primary px-2 py-0.5 text-xs font-medium text-primary-foreground">
            {t('family.children.unread', { count: child.unread })}
          </span>
        ) : null}
      </span>
      <span className="text-xs break-words text-muted-foreground">
        {t('family.children.course', { school: child.school_name, course: child.course_name })}
      </span>
    </>
  );
}
