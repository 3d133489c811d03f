import { useEffect, useEffectEvent, useLayoutEffect, useRef, useState } from 'react';
import { useSearch } from 'wouter';
import type { ActorRefFrom, AnyActorLogic, AnyActorRef, EventFromLogic, InputFrom } from 'xstate';
import { closePage, openPage } from '../../machines/app/pages';
import { appActor } from '../actors';

let visits = 0;

/**
 * A page whose screen lives in its address's query (`/inbox?q=…`, `/dashboard/users?period=month…`): what the
 * query means to its actor. `read` takes the query (without `?`) to the input's part it gives, as the visit
 * opens; when the query changes with the page open (Back, Forward, a link to the same screen), the actor hears
 * `event` carrying the same part. A function with its parameter typed (`(search: string) => …`), so the rest
 * of the input and the event are checked against what it returns.
 *
 * Writing goes the other way, as the machine's own `navigate` effect (replacing the entry), so its model
 * tests see every address it writes; that change comes back here as a changed query, and the machine ignores
 * an address that says what it already shows.
 */
interface PageAddress<TLogic extends AnyActorLogic, TFromAddress extends object> {
  read: (search: string) => TFromAddress;
  event?: AddressEventType<EventFromLogic<TLogic>, TFromAddress>;
}

/** For a machine that reads the query itself (its rules know what each parameter means). */
export const wholeQuery = (search: string) => ({ search });

/** The events that carry exactly what the address gives (`{ type: 'folder.address'; q }` for `{ q }`). */
type AddressEventType<TEvent, TFromAddress> = TEvent extends { type: infer TType }
  ? Omit<TEvent, 'type'> extends TFromAddress
    ? TFromAddress extends Omit<TEvent, 'type'>
      ? TType
      : never
    : never
  : never;

/** The input a page gives itself: all of it, or what its address does not. */
type OwnInput<TLogic extends AnyActorLogic, TFromAddress extends object> = [keyof TFromAddress] extends [never]
  ? InputFrom<TLogic>
  : Omit<InputFrom<TLogic>, keyof TFromAddress>;

export interface PageActorOptions<TLogic extends AnyActorLogic, TFromAddress extends object = Record<never, never>> {
  /** What names the visit: another value (another folder, another message) opens another actor. */
  input: OwnInput<TLogic, TFromAddress>;
  /** The screen lives in the address too: read as the visit opens, and whenever the address changes by itself. */
  address?: PageAddress<TLogic, TFromAddress>;
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
 * With `address`, the visit opens with what the query says, and a query changed later is told to the actor
 * (its own choices change the address too, and must not open another visit).
 *
 * Null on the very first render only: spawning is not allowed during render, so the actor opens in a
 * layout effect, which re-renders before anything is painted. Pages render their skeleton meanwhile.
 */
export function usePageActor<TLogic extends AnyActorLogic, TFromAddress extends Partial<InputFrom<TLogic>> & object = Record<never, never>>(
  logic: TLogic,
  options: PageActorOptions<TLogic, TFromAddress>,
): ActorRefFrom<TLogic> | null {
  const [actor, setActor] = useState<ActorRefFrom<TLogic> | null>(null);
  const visit = useRef<Visit | null>(null);
  const search = useSearch();
  // Read when a visit opens and when the query changes, with what the page gives then.
  const openingInput = useEffectEvent(
    (own: InputFrom<TLogic>): InputFrom<TLogic> =>
      options.address ? ({ ...own, ...options.address.read(search) } as InputFrom<TLogic>) : own,
  );
  const addressEvent = useEffectEvent((changed: string) => {
    const address = options.address;
    return address?.event ? { ...address.read(changed), type: address.event } : undefined;
  });
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
      setActor(openPage(appActor, id, logic, openingInput(JSON.parse(key) as InputFrom<TLogic>)));
    }
    const opened = visit.current as Visit;
    return () => {
      opened.closing = setTimeout(() => closePage(appActor, opened.id), 0);
    };
  }, [logic, key]);
  useEffect(() => {
    const event = addressEvent(search);
    if (event) (actor as AnyActorRef | null)?.send(event);
  }, [actor, search]);
  return actor;
}
