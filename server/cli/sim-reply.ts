// `npm run sim:reply -- [--whatsapp] <teléfono> <texto>`: a family answers, in the demo. Without a real SMS /
// WhatsApp provider nobody's phone can write to the school, so this asks the built-in simulator of the
// running server (`npm start`, same settings) to bring the message in as a gateway would
// (POST /sim/provider/incoming, docs/provider-api.md). The phone may be typed with spaces, unquoted.
import { parseArgs } from 'node:util';
import { configFromEnv } from '../config';
import { readSimulatorToken, simulatorTokenFile } from '../delivery/simulator';

const USAGE = [
  'Uso: npm run sim:reply -- [--whatsapp] <teléfono> <texto>',
  '  Ejemplo: npm run sim:reply -- +56 9 1234 5678 "Confirmo asistencia"',
  '  Responde como la familia de ese teléfono al último mensaje que le llegó por SMS (o WhatsApp).',
].join('\n');

/** The server `npm start` runs with these settings, as this machine reaches it. */
function serverUrl(env: NodeJS.ProcessEnv): string {
  const host = !env.HOST || env.HOST === '0.0.0.0' || env.HOST === '::' ? '127.0.0.1' : env.HOST;
  return `http://${host.includes(':') ? `[${host}]` : host}:${env.PORT || 3000}`;
}

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({
    options: { whatsapp: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
    allowPositionals: true,
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  if (positionals.length < 2) {
    console.error(USAGE);
    return 2;
  }
  const text = positionals.at(-1)!;
  const phone = positionals.slice(0, -1).join(' ');
  const config = configFromEnv();
  const token = await readSimulatorToken(config.outboxDir);
  if (!token) {
    console.error(`No se encontró ${simulatorTokenFile(config.outboxDir)}: inicie Hermes con \`npm start\` (con el simulador de SMS).`);
    return 1;
  }
  const url = `${serverUrl(process.env)}/sim/provider/incoming`;
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ channel: values.whatsapp ? 'whatsapp' : 'sms', from: phone, body: text }),
    });
  } catch {
    console.error(`Hermes no responde en ${url}: ¿está corriendo \`npm start\`?`);
    return 1;
  }
  const answer = (await response.json().catch(() => null)) as { message?: string; from?: string } | null;
  if (response.status === 404) {
    console.error('Este Hermes no usa el simulador (tiene un proveedor de SMS y WhatsApp configurado).');
    return 1;
  }
  if (!response.ok) {
    console.error(answer?.message ?? `Hermes respondió ${response.status}.`);
    return 1;
  }
  console.log(
    `Mensaje de ${answer?.from ?? phone} entregado a Hermes: está en la bandeja de quien le escribió a ese teléfono, o en la de los administradores del colegio.`,
  );
  return 0;
}

process.exitCode = await main();
