// A family's SMS or WhatsApp on the message page, in the built app: the line under the sender (the channel
// and number it came by, and for a number of no family that it cannot be answered here) reads and passes axe
// at both widths. The inbound path itself is covered against the real server by tests/api/inbound.test.ts;
// here the administrator's first inbox message is dressed as one (its GET answered with `arrived_by`), since
// only a provider's signed webhook makes such a message.
import { expect, test } from '@playwright/test';
import type { MessageDetail } from '../../shared/messages-contract';
import { expectNoAxeViolations } from './support/axe';
import { USERS } from './support/env';
import { t } from './support/i18n';
import { loginViaApi } from './support/session';
import { messageIds, settled } from './support/visits';

test('a message from a number of no family says so, and passes axe at 1366 px and 390 px', async ({ page }) => {
  await loginViaApi(page, USERS.admin);
  const { inbox } = await messageIds(page);
  await page.route(`**/api/messages/${inbox}`, async (route) => {
    if (route.request().method() !== 'GET') return route.fallback();
    const response = await route.fetch();
    const body = (await response.json()) as { data: MessageDetail };
    const data: MessageDetail = {
      ...body.data,
      title: 'Mensaje por WhatsApp de +56 9 6123 4567 (número desconocido)',
      content: 'Hola, soy la abuela de Tomás.',
      channels: ['whatsapp'],
      sender: { id: 0, name: '+56 9 6123 4567', kind: 'funcionario' },
      sender_of: [],
      allow_replies: false,
      reply_channels: [],
      arrived_by: { channel: 'whatsapp', phone: '+56 9 6123 4567', known: false },
    };
    return route.fulfill({ response, json: { data } });
  });
  await page.setViewportSize({ width: 1366, height: 800 });
  await page.goto(`/inbox/message/${inbox}`);
  const header = page.locator('header').filter({ has: page.getByRole('heading', { level: 1 }) });
  await expect(header.getByText('Llegó por WhatsApp desde +56 9 6123 4567')).toBeVisible();
  await expect(header.getByText(t('messages.arrivedBy.unknown'))).toBeVisible();
  await expect(page.getByRole('button', { name: t('messages.reply'), exact: true })).toHaveCount(0);
  await settled(page);
  await expectNoAxeViolations(page, 'message from an unknown number at 1366 px');
  await page.setViewportSize({ width: 390, height: 844 });
  await settled(page);
  await expectNoAxeViolations(page, 'message from an unknown number at 390 px');
});
