// Reading a DeliveryProgress (reception-contract.ts) the same way on every screen that shows one.
import type { DeliveryProgress } from './reception-contract';

/** Deliveries no longer in flight (queued and sent are still waiting for an outcome). */
export const settledOf = (progress: DeliveryProgress): number => progress.total - progress.queued - progress.sent;

/** Whole percent settled; an empty message counts as done. */
export const settledPercent = (progress: DeliveryProgress): number =>
  progress.total === 0 ? 100 : Math.floor((settledOf(progress) * 100) / progress.total);
