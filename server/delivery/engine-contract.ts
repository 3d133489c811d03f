// What the HTTP routes ask of the delivery engine (server/delivery/engine.ts). Routes call these AFTER their
// transaction commits; if the process dies in between, the engine's sweep finds the message anyway.

/** One delivery in one retry round: what a deliver job is for. */
export interface DeliveryRound {
  id: number;
  generation: number;
}

export interface DeliveryEngine {
  /** A message was sent now: queue every queued delivery of it. */
  messageSent(messageId: number): Promise<void>;
  /** A message was scheduled (or its schedule changed): fire it at `at`. */
  messageScheduled(messageId: number, at: Date): Promise<void>;
  /** These delivery rounds were queued again ("retry failed"). */
  deliveriesQueued(rounds: DeliveryRound[]): Promise<void>;
}
