// Each section's rows of the summary (bench/summary.ts), from its own report: the value and the target both
// come from what the section measured and the constants it judges itself by, never numbers written here.
// (c) and (d) are in bench/run.ts beside their reports. A new section adds its `SummaryRows` function here
// (or beside its report) and pushes its rows in run.ts where the section runs: the size and time of
// /api/recipients for a 5,000-family school (bench/recipients-size.ts) joins the table that way.
import { ACTIVITY_TARGET_MS, type ActivityBenchReport } from './activity';
import type { BundleReport } from './bundle';
import type { ConnectivityBenchReport } from './connectivity';
import { ENGINE_COST_TARGET, PGLITE_PEAK_RSS_TARGET_MB, type DeliveryBenchReport } from './delivery';
import type { ListsBenchReport } from './lists';
import { NEWS_TARGET_MS, type NewsBenchReport } from './news';
import type { PrivacyBenchReport } from './privacy';
import type { QuotaBenchReport } from './quota';
import type { RecipientSearchReport } from './recipient-search';
import type { RecipientsSizeReport } from './recipients-size';
import type { RosterBenchReport } from './roster';
import type { SendBenchReport } from './send';
import type { SummaryRow, SummaryRows } from './summary';
import type { TemplatesBenchReport } from './templates';
import type { FamilyThrottledReport } from './family-throttled';
import type { ThrottledReport } from './throttled';

const reported = { kind: 'reported' } as const;
const atMost = (limit: number) => ({ kind: 'atMost', limit }) as const;

export const bundleRows: SummaryRows<BundleReport> = (r) => [
  { section: 'a', figure: 'JavaScript inicial (gzip -9)', unit: 'kB', value: r.initialGzipKB, goal: atMost(r.budgetKB) },
];

export const familyBundleRows: SummaryRows<BundleReport> = (r) => [
  // No target yet: it carries the same React floor as the staff's in one chunk (decision 0202).
  { section: 'a', figure: 'JavaScript inicial de /familia (gzip -9)', unit: 'kB', value: r.initialGzipKB, goal: reported },
];

export const startupRows: SummaryRows<{ reopenMedianMs: number }> = (r) => [
  { section: 'b', figure: 'arranque del servidor, reabriendo (mediana)', unit: 'ms', value: r.reopenMedianMs, goal: reported },
];

export const sendRows: SummaryRows<SendBenchReport> = (r) => [
  { section: 'e', figure: 'transacción de envío ÷ INSERT … SELECT', unit: '×', value: r.ratio, goal: atMost(r.ratioTarget) },
];

export const recipientSearchRows: SummaryRows<RecipientSearchReport> = (r) =>
  r.sizes.map((size) => ({
    section: 'f',
    figure: `búsqueda de destinatarios, ${size.names} nombres (mediana)`,
    unit: 'ms',
    value: size.ours.medianMs,
    goal: atMost(size.targetMedianMs),
  }));

export const deliveryRows: SummaryRows<DeliveryBenchReport> = (r) => {
  const cost: SummaryRow[] = r.rawEmail
    ? r.rawEmail.engineCost.map((c) => ({
        section: 'g',
        figure: `costo del motor sobre el canal, correo, ${c.run}`,
        unit: '×',
        value: c.ratio,
        goal: atMost(ENGINE_COST_TARGET),
      }))
    : [{ section: 'g', figure: 'costo del motor sobre el canal, correo', unit: '×', value: null, goal: atMost(ENGINE_COST_TARGET) }];
  const pglite = r.runs.filter((run) => run.store === 'pglite' && run.memory);
  const peak = pglite.length > 0 ? Math.max(...pglite.map((run) => run.memory?.peakMB ?? 0)) : null;
  return [
    ...cost,
    { section: 'g', figure: 'RSS pico del servidor entregando (PGlite)', unit: 'MB', value: peak, goal: atMost(PGLITE_PEAK_RSS_TARGET_MB) },
    // The e-mails a `kill -9` mid-send made the SMTP server receive twice (the crash test asserts the bound).
    { section: 'g', figure: 'correos repetidos tras kill -9 a mitad del envío', unit: '', value: r.crash?.resent ?? null, goal: reported },
  ];
};

export const templatesRows: SummaryRows<TemplatesBenchReport> = (r) => [
  { section: 'h', figure: 'GET /api/templates (mediana)', unit: 'ms', value: r.medianMs.list, goal: reported },
];

export const listsRows: SummaryRows<ListsBenchReport> = (r) => [
  { section: 'l', figure: `miembros de una lista de ${r.bigListMembers} (mediana)`, unit: 'ms', value: r.members.medianMs, goal: reported },
];

export const quotaRows: SummaryRows<QuotaBenchReport> = (r) => [
  { section: 'q', figure: 'GET /api/quota/usage (mediana)', unit: 'ms', value: r.medianMs.usage, goal: reported },
];

export const activityRows: SummaryRows<ActivityBenchReport> = (r) => {
  const slowest = r.queries.length > 0 ? Math.max(...r.queries.map((q) => q.medianMs)) : null;
  return [
    { section: 'r', figure: 'actividad: la consulta más lenta (mediana)', unit: 'ms', value: slowest, goal: atMost(ACTIVITY_TARGET_MS) },
  ];
};

export const connectivityRows: SummaryRows<ConnectivityBenchReport> = (r) => [
  { section: 'k', figure: 'GET /api/dashboard/connectivity (mediana)', unit: 'ms', value: r.medianMs.connectivity, goal: reported },
];

export const newsRows: SummaryRows<NewsBenchReport> = (r) => {
  const { baseline: _baseline, ...timed } = r.medianMs;
  const slowest = Math.max(...Object.values(timed));
  return [{ section: 'n', figure: 'mural: el pedido más lento (mediana)', unit: 'ms', value: slowest, goal: atMost(NEWS_TARGET_MS) }];
};

export const throttledRows: SummaryRows<ThrottledReport> = (r) =>
  r.figures.map((figure) => ({
    section: 't',
    figure: `teléfono: ${figure.label}`,
    unit: 'ms',
    value: figure.medianMs,
    goal: figure.targetMs === null ? reported : atMost(figure.targetMs),
  }));

export const recipientsSizeRows: SummaryRows<RecipientsSizeReport> = (r) => [
  {
    section: 'y',
    figure: `directorio de ${r.families} familias (mediana)`,
    unit: 'ms',
    value: r.directory.time.medianMs,
    goal: reported,
  },
  { section: 'y', figure: 'directorio comprimido (gzip)', unit: 'kB', value: r.directory.gzip.bytes / 1000, goal: reported },
  { section: 'y', figure: 'niveles y cursos comprimidos (gzip)', unit: 'kB', value: r.courses.gzip.bytes / 1000, goal: reported },
];

export const rosterRows: SummaryRows<RosterBenchReport> = (r) => [
  {
    section: 'i',
    figure: 'importación de nómina 3.000/5.000 (leer + vista previa + aplicar)',
    unit: 'ms',
    value: r.totalMs,
    goal: atMost(r.totalTargetMs),
  },
  { section: 'i', figure: 'importación de nómina: aplicar ÷ INSERT de varias filas', unit: '×', value: r.ratio, goal: reported },
  { section: 'i', figure: 'importación de nómina: RSS máxima del proceso', unit: 'MB', value: r.peakRssMB, goal: reported },
];

export const familyThrottledRows: SummaryRows<FamilyThrottledReport> = (r) =>
  r.figures.map((figure) => ({
    section: 'm',
    figure: `familias en 3G: ${figure.label}`,
    unit: 'ms',
    value: figure.medianMs,
    goal: figure.targetMs === null ? reported : atMost(figure.targetMs),
  }));

export const privacyRows: SummaryRows<PrivacyBenchReport> = (r) => [
  {
    section: 'p',
    figure: `ZIP de los datos del apoderado con más mensajes (${r.guardian.received}; mediana)`,
    unit: 'ms',
    value: r.exportTime.medianMs,
    goal: reported,
  },
  { section: 'p', figure: 'ZIP de los datos de una persona: tamaño', unit: 'kB', value: r.exportBytes / 1000, goal: reported },
];
