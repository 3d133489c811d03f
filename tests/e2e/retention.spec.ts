// /settings/retention as the Chilean school's administrator: the periods as the server keeps them; a period
// under a year refused on its field in Spanish with nothing typed lost; a shorter period saved, kept after a
// reload, with the preview of the next sweep saying what the server's preview says (one sentence per kind,
// the school's date format, real plurals). axe-clean at 1366 and 390 px. The defaults are put back at the end.
import { expect, test, type Page } from '@playwright/test';
import { RETENTION_DEFAULTS, RETENTION_KINDS, type RetentionSettings } from '../../shared/retention-contract';
import { expectNoAxeViolations } from './support/axe';
import { USERS } from './support/env';
import { t } from './support/i18n';
import { api, loginViaApi } from './support/session';
import { appUrl } from './support/server';

const field = (page: Page, kind: (typeof RETENTION_KINDS)[number]) =>
  page.getByLabel(`${t(`retention.kinds.${kind}`)} (${t('retention.months')})`, { exact: true });
const day = (iso: string) =>
  new Intl.DateTimeFormat('es-CL', { timeZone: 'America/Santiago', year: 'numeric', month: '2-digit', day: '2-digit' }).format(
    new Date(iso),
  );

/** The sentences the screen must show for the server's own preview. */
async function expectPreview(page: Page) {
  const res = await page.request.get(api('/retention'));
  const { proxima } = ((await res.json()) as { data: RetentionSettings }).data;
  const section = page.getByTestId('retention-next');
  const date = day(proxima.fecha);
  const lines = RETENTION_KINDS.filter((k) => proxima.tipos[k].cantidad > 0).map((k) =>
    t(`retention.removal.${k}`, { count: proxima.tipos[k].cantidad, date, before: day(proxima.tipos[k].anteriores_a) }),
  );
  if (lines.length === 0) await expect(section).toContainText(t('retention.nothing', { date }));
  else for (const line of lines) await expect(section.getByText(line, { exact: true })).toBeVisible();
}

async function save(page: Page) {
  await page.getByRole('button', { name: t('retention.save'), exact: true }).click();
}

for (const viewport of [
  { width: 1366, height: 900 },
  { width: 390, height: 844 },
]) {
  test(`the periods: refused, saved, kept, with what the next sweep removes (${viewport.width} px)`, async ({ page }) => {
    await page.setViewportSize(viewport);
    await loginViaApi(page, USERS.admin);
    await page.goto('/settings/retention');
    await expect(page).toHaveURL(appUrl('/settings/retention'));
    await expect(page).toHaveTitle(`${t('pages.settingsRetention')} · ${t('app.name')}`);
    for (const kind of RETENTION_KINDS) await expect(field(page, kind)).toHaveValue(String(RETENTION_DEFAULTS[kind]));
    await expectPreview(page);
    await expectNoAxeViolations(page, `/settings/retention at ${viewport.width} px`);

    // Under a year: the server's words on the field, focus there, the other field as typed.
    await field(page, 'mensajes').fill('36');
    await field(page, 'entregas').fill('6');
    await save(page);
    await expect(page.getByRole('alert').filter({ hasText: 'Debe ser de al menos 12 meses' })).toBeVisible();
    await expect(field(page, 'entregas')).toHaveAttribute('aria-invalid', 'true');
    await expect(field(page, 'mensajes')).toHaveValue('36');
    await expectNoAxeViolations(page, `/settings/retention with a refused field at ${viewport.width} px`);

    await field(page, 'entregas').fill('12');
    await field(page, 'respuestas').fill('36');
    await save(page);
    await expect(page.getByText(t('retention.toast.saved'))).toBeVisible();
    await page.reload();
    await expect(field(page, 'mensajes')).toHaveValue('36');
    await expect(field(page, 'entregas')).toHaveValue('12');
    await expectPreview(page);

    // Back as it was, for the other specs on this server.
    for (const kind of RETENTION_KINDS) await field(page, kind).fill(String(RETENTION_DEFAULTS[kind]));
    await save(page);
    await expect(page.getByText(t('retention.toast.saved')).first()).toBeVisible();
  });
}
