// Templates in the browser: create a template with {estudiante} (inserted with its chip) and see it listed
// with its SMS size; close an editor with unsaved changes (asked first) and an untouched one; edit it; copy a
// product template to Mis plantillas; use one from the list in a new message, and one from compose with the
// replace question; delete one after its question. Also on a 390×844 phone, where nothing scrolls sideways.
import { expect, test, type Page } from '@playwright/test';
import { PRODUCT_REPOSITORY } from '../../shared/templates-contract';
import { smsText } from '../../shared/sms-text';
import { ComposePage } from './pages/compose-page';
import { templatesScreen } from './pages/templates-page';
import { USERS } from './support/env';
import { exactly, t } from './support/i18n';
import { loginViaApi } from './support/session';

const toast = (page: Page, text: string) => page.locator('[data-slot=toast]').filter({ hasText: exactly(text) });
const unique = () => Date.now().toString(36).slice(-5);

/** "86 caracteres · 1 SMS", as the screen says it for this content. */
const sizeOf = (content: string) => t('templates.sms.size', { chars: smsText(content, null).units, count: 1 });

test('templates: create with {estudiante}, see its SMS size, edit, copy a product template, use it from the list and from compose, delete', async ({
  page,
}) => {
  await loginViaApi(page, USERS.utp);
  await page.goto('/templates');
  const screen = templatesScreen(page);
  await expect(screen.heading).toBeVisible();
  await expect(screen.tab(t('templates.repository.mis-plantillas'))).toHaveAttribute('aria-selected', 'true');

  // A new template starts empty (SPEC §3); saving it empty says what is missing, in Spanish.
  await screen.newButton.click();
  await expect(screen.name).toHaveValue('');
  await expect(screen.content).toHaveValue('');
  await screen.save.click();
  await expect(screen.editor.getByText(t('templates.errors.nameRequired'))).toBeVisible();
  await expect(screen.editor.getByText(t('templates.errors.contentRequired'))).toBeVisible();
  await expect(screen.name).toBeFocused();

  const name = `Reunión de curso ${unique()}`;
  await screen.name.fill(name);
  await screen.content.fill('Estimada familia: ');
  // The chip writes the field where the caret is.
  await screen.chip(t('templates.mergeFields.estudiante')).click();
  await screen.content.pressSequentially(' tiene reunión el jueves a las 18:00.');
  const content = 'Estimada familia: {estudiante} tiene reunión el jueves a las 18:00.';
  await expect(screen.content).toHaveValue(content);
  await expect(screen.editor.locator('[data-slot=merge-preview] [data-field=estudiante]')).toHaveText(
    t('templates.mergeFields.estudiante'),
  );
  await screen.save.click();
  await expect(toast(page, t('templates.toast.created'))).toBeVisible();
  await expect(screen.editor).toBeHidden();

  // Listed with its field as a chip and its SMS size.
  const card = screen.card(name);
  await expect(card).toBeVisible();
  await expect(card.locator('[data-slot=merge-field][data-field=estudiante]')).toBeVisible();
  await expect(card.locator('[data-slot=sms-size]')).toHaveText(sizeOf(content));

  // Closing the editor never drops what was typed without asking: Escape asks «¿Descartar los cambios?»
  // in the editor, focus on "Seguir editando"; Escape again keeps editing with the text; Cancelar asks
  // too, and "Descartar" closes, creating nothing. An untouched editor closes at once.
  const discardQuestion = screen.editor.getByRole('alertdialog', { name: t('templates.discardConfirm.title') });
  const keepEditing = discardQuestion.getByRole('button', { name: exactly(t('templates.discardConfirm.keep')) });
  const draftName = `Salida pedagógica ${unique()}`;
  const draftContent = 'El viernes vamos al museo con {curso}.';
  await screen.newButton.click();
  await screen.name.fill(draftName);
  await screen.content.fill(draftContent);
  await page.keyboard.press('Escape');
  await expect(discardQuestion).toBeVisible();
  await expect(keepEditing).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(discardQuestion).toBeHidden();
  await expect(screen.name).toHaveValue(draftName);
  await expect(screen.content).toHaveValue(draftContent);
  await expect(screen.name).toBeFocused();
  await screen.editor.getByRole('button', { name: exactly(t('templates.editor.cancel')) }).click();
  await expect(keepEditing).toBeFocused();
  await keepEditing.click();
  await expect(screen.content).toHaveValue(draftContent);
  await page.keyboard.press('Escape');
  await discardQuestion.getByRole('button', { name: exactly(t('templates.discardConfirm.discard')) }).click();
  await expect(screen.editor).toBeHidden();
  await expect(screen.newButton).toBeFocused();
  await expect(screen.card(draftName)).toHaveCount(0);
  await card.getByRole('button', { name: t('templates.editLabel', { name }) }).click();
  await expect(screen.name).toHaveValue(name);
  await page.keyboard.press('Escape');
  await expect(screen.editor).toBeHidden();
  await expect(card.getByRole('button', { name: t('templates.editLabel', { name }) })).toBeFocused();

  // Edit: the editor opens with the template; the list shows the new name.
  const edited = `${name} (4° B)`;
  await card.getByRole('button', { name: t('templates.editLabel', { name }) }).click();
  await expect(screen.name).toHaveValue(name);
  await expect(screen.content).toHaveValue(content);
  await screen.name.fill(edited);
  await screen.save.click();
  await expect(toast(page, t('templates.toast.updated'))).toBeVisible();
  await expect(screen.card(edited)).toBeVisible();
  await expect(screen.card(name)).toHaveCount(0);

  // The product's templates are read-only and can be copied to Mis plantillas.
  await screen.tab(PRODUCT_REPOSITORY.name).click();
  await screen.search.fill('citacion');
  const citation = screen.card('Citación a entrevista');
  await expect(citation).toBeVisible();
  await expect(citation.getByRole('button', { name: new RegExp(t('templates.edit')) })).toHaveCount(0);
  await citation.getByRole('button', { name: t('templates.copyLabel', { name: 'Citación a entrevista' }) }).click();
  await expect(toast(page, t('templates.toast.copied'))).toBeVisible();
  await screen.search.fill('');
  await screen.tab(t('templates.repository.mis-plantillas')).click();
  // The copy is the user's own now: editable, under the library template's name.
  const copy = page.locator('[data-slot=template-card]').filter({ hasText: 'Citación a entrevista' }).first();
  await expect(copy).toBeVisible();
  await expect(copy.getByRole('button', { name: /^Editar la plantilla «Citación a entrevista/ })).toBeVisible();

  // "Usar en mensaje nuevo": compose opens with the title and the content (an empty form: no question).
  await screen
    .card(edited)
    .getByRole('link', { name: t('templates.useLabel', { name: edited }) })
    .click();
  const compose = new ComposePage(page);
  await compose.expectReady();
  await expect(compose.title).toHaveValue(edited);
  await expect(compose.content).toHaveValue(content);
  await expect(page).toHaveURL(/\/new$/);
  await expect(page.locator('[data-slot=compose-form] [data-slot=merge-preview] [data-field=estudiante]')).toBeVisible();

  // "Usar plantilla" over typed text asks first; keeping the text keeps it, replacing replaces both.
  const use = page.getByRole('button', { name: exactly(t('templates.picker.open')) });
  const picker = page.getByRole('dialog', { name: t('templates.picker.title') });
  const replace = page.getByRole('alertdialog', { name: t('templates.picker.replaceTitle') });
  const chooseCitation = async () => {
    await use.click();
    await expect(picker).toBeVisible();
    await picker.getByRole('searchbox').fill('Citación a entrevista');
    await picker.getByRole('button', { name: t('templates.picker.chooseLabel', { name: 'Citación a entrevista' }) }).click();
    await expect(replace).toBeVisible();
  };
  await chooseCitation();
  await replace.getByRole('button', { name: exactly(t('templates.picker.keep')) }).click();
  await expect(replace).toBeHidden();
  await expect(compose.title).toHaveValue(edited);
  await expect(compose.content).toHaveValue(content);
  await expect(use).toBeFocused();
  await chooseCitation();
  await replace.getByRole('button', { name: exactly(t('templates.picker.replace')) }).click();
  await expect(compose.title).toHaveValue('Citación a entrevista');
  await expect(compose.content).not.toHaveValue(content);
  await expect(compose.content).toBeFocused();

  // Delete asks first; then the template is gone. (Reloading away from compose: the browser's own question.)
  page.once('dialog', (dialog) => void dialog.accept());
  await page.goto('/templates');
  const doomed = screen.card(edited);
  await doomed.getByRole('button', { name: t('templates.deleteLabel', { name: edited }) }).click();
  const question = page.getByRole('alertdialog', { name: t('templates.deleteConfirm.title') });
  await expect(question).toBeVisible();
  await question.getByRole('button', { name: exactly(t('templates.deleteConfirm.confirm')) }).click();
  await expect(toast(page, t('templates.toast.deleted'))).toBeVisible();
  await expect(screen.card(edited)).toHaveCount(0);
});

test.describe('on a 390×844 phone', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('templates: the list and the editor fit, a template is created and used in a new message', async ({ page }) => {
    await loginViaApi(page, USERS.directora);
    await page.goto('/templates');
    const screen = templatesScreen(page);
    await expect(screen.heading).toBeVisible();
    await expect(
      page
        .locator('[data-slot=template-card]')
        .first()
        .or(page.getByText(t('templates.empty.mis-plantillas', { product: PRODUCT_REPOSITORY.name }))),
    ).toBeVisible();
    const overflow = () => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(await overflow(), 'no sideways scroll').toBeLessThanOrEqual(0);

    await screen.newButton.click();
    const name = `Útiles ${unique()}`;
    await screen.name.fill(name);
    await screen.content.fill('Recuerde enviar los útiles de ');
    await screen.chip(t('templates.mergeFields.curso')).click();
    expect(await overflow(), 'no sideways scroll with the editor open').toBeLessThanOrEqual(0);
    // The discard question fits too, and "Seguir editando" keeps the text.
    await page.keyboard.press('Escape');
    const discardQuestion = screen.editor.getByRole('alertdialog', { name: t('templates.discardConfirm.title') });
    await expect(discardQuestion).toBeVisible();
    expect(await overflow(), 'no sideways scroll with the discard question').toBeLessThanOrEqual(0);
    await discardQuestion.getByRole('button', { name: exactly(t('templates.discardConfirm.keep')) }).click();
    await expect(screen.content).toHaveValue('Recuerde enviar los útiles de {curso}');
    await screen.save.click();
    await expect(toast(page, t('templates.toast.created'))).toBeVisible();
    const card = screen.card(name);
    await expect(card.locator('[data-slot=sms-size]')).toHaveText(sizeOf('Recuerde enviar los útiles de {curso}'));
    expect(await overflow(), 'no sideways scroll with the list').toBeLessThanOrEqual(0);

    await card.getByRole('link', { name: t('templates.useLabel', { name }) }).click();
    const compose = new ComposePage(page);
    await compose.expectReady();
    await expect(compose.title).toHaveValue(name);
    await expect(compose.content).toHaveValue('Recuerde enviar los útiles de {curso}');
  });
});
