// The families' part of `npm start`'s demo banner: where the app is, the demo phone, and where its sign-in
// code arrives. With the built-in SMS simulator nobody's phone rings: the code is the text file the
// simulator writes in the outbox (decision 0224). With a real SMS provider the code goes to the real phone
// and the banner says only that: codes are never printed or logged.
import path from 'node:path';
import { DEMO_FAMILIES } from '../shared/demo';
import { formatPhone } from '../shared/phone-format';
import type { ServerConfig } from './config';

/** Where the SMS simulator writes each SMS it accepts (server/delivery/simulator.ts). */
export function simulatorSmsDir(outboxDir: string): string {
  return path.resolve(outboxDir, 'sim');
}

export function familiesBanner(url: string, config: Pick<ServerConfig, 'smsProvider' | 'outboxDir'>): string[] {
  const code = config.smsProvider
    ? '  El código llega por SMS al teléfono (proveedor de SMS configurado).'
    : `  El código llega al simulador de SMS: el archivo más reciente de ${simulatorSmsDir(config.outboxDir)}`;
  return [
    `  App de las familias: ${url}/familia`,
    ...DEMO_FAMILIES.map((f) => `  Teléfono de demostración: ${formatPhone(f.phone)}  (${f.schools.join(' y ')})`),
    code,
    // Nobody's phone can answer the simulator either: this command plays the family (decision 0252).
    ...(config.smsProvider ? [] : ['  Para responder por SMS como una familia: npm run sim:reply -- <teléfono> "<texto>"']),
  ];
}
