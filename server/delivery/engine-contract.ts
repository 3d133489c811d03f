// What the HTTP routes ask of the delivery engine (server/delivery/engine.ts). Routes call these AFTER their
// transaction commits; if the process dies in between, the engine's sweep finds the message anyway.
export interface DeliveryEngine {
  /** A message was sent now: queue every queued delivery of it. */
  messageSent(messageId: number): Promise<void>;
  /** A message was scheduled (or its schedule changed): fire it at `at`. */
  messageScheduled(messageId: number, at: Date): Promise<void>;
  /** These delivery rounds were queued again ("retry failed"). */
  deliveriesQueued(rounds: { id: number; generation: number }[]): Promise<void>;
}
