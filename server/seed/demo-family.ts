// The families' app's demo family (shared/demo.ts DEMO_FAMILIES): a mother with a child at San Andrés and
// another at the Liceo del Elqui, so one sign-in by phone shows two schools (decision 0208). Made from rows
// the seed already has, after every other step, so no id and no PRNG stream changes: the San Andrés mother
// of most app messages becomes the Elqui mother of most app messages (same person, same phone), and both get
// the demo phone. San Andrés takes the Elqui's names, not the reverse: the other schools' people stay the same
// at any San Andrés size (the benchmarks' seed). Which two rows it is depends on the seed's clock like their messages do; the phone
// is always the same.
import { DEMO_FAMILIES, DEMO_SCHOOLS } from '../../shared/demo';
import { GUARDIAN_ROLE } from '../db/schema/school';
import type { GuardianRow, SeedData } from './rows';

/** The deliveries the families' app shows (server/app-api/inbox.ts), per guardian id. */
function appMessagesByGuardian(out: SeedData): Map<number, number> {
  const counts = new Map<number, number>();
  for (const d of out.smsUse.deliveries) {
    if (d.channel !== 'app-mobile' || !d.address?.startsWith('guardian:')) continue;
    if (!['sent', 'received', 'read'].includes(d.status)) continue;
    const id = Number(d.address.slice('guardian:'.length));
    counts.set(id, (counts.get(id) ?? 0) + 1);
  }
  return counts;
}

/** The titular mother of that school with a phone, the app, and the most app messages (the lowest id on a tie). */
function pickMother(out: SeedData, school: string, counts: Map<number, number>): GuardianRow {
  const institutionId = out.institutions.find((i) => i.name === school)?.id;
  const mothers = new Set(
    out.studentGuardians.filter((sg) => sg.role === GUARDIAN_ROLE.titular && sg.relationship === 'Madre').map((sg) => sg.guardianId),
  );
  let best: GuardianRow | undefined;
  for (const g of out.guardians) {
    if (g.institutionId !== institutionId || !mothers.has(g.id) || !g.phone || !g.appInstalledAt) continue;
    if ((counts.get(g.id) ?? 0) > (best ? (counts.get(best.id) ?? 0) : 0)) best = g;
  }
  if (!best) throw new Error(`La familia de demostración no tiene madre con mensajes en la app en ${school}`);
  return best;
}

const nameOf = (p: { firstNames: string; lastNameFather: string; lastNameMother: string }) =>
  `${p.firstNames.split(' ')[0]} ${p.lastNameFather} ${p.lastNameMother}`;

export function addDemoFamily(out: SeedData): void {
  const family = DEMO_FAMILIES[0]!;
  if (out.guardians.some((g) => g.phone === family.phone))
    throw new Error(`El teléfono de demostración ${family.phone} ya es de otro apoderado`);
  const counts = appMessagesByGuardian(out);
  const mother = pickMother(out, DEMO_SCHOOLS.elqui, counts);
  const twin = pickMother(out, DEMO_SCHOOLS.sanAndres, counts);
  const oldName = nameOf(twin);
  // The same person in both schools' records: names and RUT; the e-mail too unless San Andrés already has it.
  twin.firstNames = mother.firstNames;
  twin.lastNameFather = mother.lastNameFather;
  twin.lastNameMother = mother.lastNameMother;
  if (mother.dni && !out.guardians.some((g) => g.institutionId === twin.institutionId && g.dni === mother.dni)) twin.dni = mother.dni;
  if (mother.email && !out.guardians.some((g) => g.institutionId === twin.institutionId && g.email === mother.email))
    twin.email = mother.email;
  // Their SMS and WhatsApp history went to the phone they had: now it is this one.
  const oldPhones = new Map([
    [mother.id, mother.phone],
    [twin.id, twin.phone],
  ]);
  const theirs = new Set(
    out.mail.recipients.filter((r) => r.recipientKind === 'apoderado' && oldPhones.has(r.recipientRefId)).map((r) => r.id),
  );
  for (const d of out.smsUse.deliveries) {
    if (d.recipientId === undefined || !theirs.has(d.recipientId) || (d.channel !== 'sms' && d.channel !== 'whatsapp')) continue;
    if ([...oldPhones.values()].includes(d.address ?? null)) d.address = family.phone;
  }
  mother.phone = family.phone;
  twin.phone = family.phone;
  // Her San Andrés children carry her surname second; the messages' recipient rows carry her name.
  const children = new Set(out.studentGuardians.filter((sg) => sg.guardianId === twin.id).map((sg) => sg.studentId));
  for (const s of out.students) if (children.has(s.id)) s.lastNameMother = mother.lastNameFather;
  const newName = nameOf(twin);
  for (const r of out.mail.recipients) {
    if (r.recipientKind === 'apoderado' && r.recipientRefId === twin.id) r.displayName = r.displayName.replace(oldName, newName);
  }
}
