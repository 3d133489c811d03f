import { useLayoutEffect, useRef, useState } from 'react';
import type { ActorRefFrom, AnyActorLogic, InputFrom } from 'xstate';
import { closePage, openPage } from '../../machines/app/pages';
import { appActor } from '../actors';

let visits = 0;

export interface PageActorOptions<TLogic extends AnyActorLogic> {
  input: InputFrom<TLogic>;
}

interface Visit {
  id: string;
  key: string;
  /** Set while a close waits: React's StrictMode re-runs effects at once, and the visit goes on. */
  closing: ReturnType<typeof setTimeout> | null;
}

/**
 * The actor of one page visit: opened as a child of the app root when the page mounts, stopped when it
 * unmounts, and opened anew when `input` changes (another message, another folder). Its effects (toast,
 * navigate, focus, counters) reach the app edge through the root, so a page wires none of them.
 *
 * Null on the very first render only: spawning is not allowed during render, so the actor opens in a
 * layout effect, which re-renders before anything is painted. Pages render their skeleton meanwhile.
 */
export function usePageActor<TLogic extends AnyActorLogic>(logic: TLogic, options: PageActorOptions<TLogic>): ActorRefFrom<TLogic> | null {
  const [actor, setActor] = useState<ActorRefFrom<TLogic> | null>(null);
  const visit = useRef<Visit | null>(null);
  // Inputs are small plain values (ids, a folder, a backup key): their JSON names the visit.
  const key = JSON.stringify(options.input ?? null);
  useLayoutEffect(() => {
    const current = visit.current;
    if (current?.closing != null && current.key === key) {
      // Unmounted and mounted again in the same commit (StrictMode): the same visit, the same actor.
      clearTimeout(current.closing);
      current.closing = null;
    } else {
      visits += 1;
      const id = `${(logic as { id?: string }).id ?? 'page'}-${visits}`;
      visit.current = { id, key, closing: null };
      setActor(openPage(appActor, id, logic, JSON.parse(key) as InputFrom<TLogic>));
    }
    const opened = visit.current as Visit;
    return () => {
      opened.closing = setTimeout(() => closePage(appActor, opened.id), 0);
    };
  }, [logic, key]);
  return actor;
}
