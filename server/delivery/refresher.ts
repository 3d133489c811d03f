// When the engine refreshes the recipients its group commits left owed (server/reception/status.ts
// refreshOwed): once REFRESH_BATCH are owed, or REFRESH_WAIT_MS after the first, or at once when the engine
// has nothing else in flight. One refresh at a time; whatever fails is left to the safety sweep.
import type { Db } from '../db/client';
import type { Logger } from '../log';
import { refreshOwed } from '../reception/status';
import { createGatherer } from './gather';

/** A refresh costs about the same for 6 recipients as for 60 (the roll-up's statement trigger, the locks). */
const REFRESH_BATCH = 60;
const REFRESH_WAIT_MS = 100;

export interface Refresher {
  /** A commit left `n` more recipients owed. */
  owe(n: number): void;
  /** Starts a refresh if one is due (also what stopping calls until nothing is pending). */
  soon(): void;
  /** Something owed is not refreshed yet, or a refresh is in flight. */
  pending(): boolean;
  stop(): void;
}

/** `isBusy`: the engine has attempts or commits in flight, so a few owed recipients may wait for more. */
export function createRefresher(db: Db, logger: Logger, isBusy: () => boolean): Refresher {
  let owed = 0;
  let refreshing: Promise<void> | undefined;
  const gatherer = createGatherer({
    size: REFRESH_BATCH,
    waitMs: REFRESH_WAIT_MS,
    waiting: () => owed,
    running: () => refreshing !== undefined,
    moreComing: isBusy,
    run: () => {
      owed = 0;
      refreshing = refreshOwed(db, logger)
        .then(() => undefined)
        .catch((err: unknown) =>
          logger.error('Cola de envíos: no se pudo actualizar el estado de los destinatarios; el barrido lo retoma', err),
        )
        .finally(() => {
          refreshing = undefined;
          gatherer.poke();
        });
    },
  });

  return {
    owe(n) {
      owed += n;
      gatherer.poke();
    },
    soon: () => gatherer.poke(),
    pending: () => owed > 0 || refreshing !== undefined,
    stop: () => gatherer.stop(),
  };
}
