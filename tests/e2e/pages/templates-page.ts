// Page object for /templates: its tabs, search, cards found by their exact name, and the
// editor dialog with its merge-field buttons.
import type { Page } from '@playwright/test';
import { exactly, t } from '../support/i18n';

export function templatesScreen(page: Page) {
  const editor = page.getByRole('dialog');
  return {
    heading: page.getByRole('heading', { level: 1, name: t('templates.heading') }),
    tab: (name: string) => page.getByRole('tab', { name, exact: true }),
    search: page.getByRole('searchbox', { name: t('templates.search') }),
    newButton: page.getByRole('button', { name: exactly(t('templates.new')) }),
    card: (name: string) => page.locator('[data-slot=template-card]').filter({ has: page.getByRole('heading', { name, exact: true }) }),
    editor,
    name: editor.getByLabel(t('templates.editor.name'), { exact: true }),
    content: editor.getByLabel(t('templates.editor.content'), { exact: true }),
    save: editor.getByRole('button', { name: exactly(t('templates.editor.save')) }),
    chip: (label: string) => editor.getByRole('button', { name: t('templates.mergeFields.insert', { field: label }) }),
  };
}
