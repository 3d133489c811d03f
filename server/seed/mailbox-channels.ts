// The demo mailboxes' drafts and scheduled messages keep to the channels the school contracted, as compose
// offers only those. Their sent messages get their channels and deliveries by the send's rules in
// ./sent-outcomes.ts.
import type { ChannelCode } from '../../shared/codes';
import type { SeedData } from './rows';

export function keepMailboxesToContractedChannels(
  data: SeedData,
  schoolChannels: ReadonlyMap<number, Readonly<Record<ChannelCode, boolean>>>,
): void {
  for (const m of data.mail.messages) {
    if (m.kind === 'sent' || m.senderKind !== 'funcionario') continue;
    const contracted = schoolChannels.get(m.institutionId)!;
    const offered = (m.channels as ChannelCode[]).filter((c) => contracted[c]);
    m.channels = offered.length > 0 ? offered : ['app-mobile'];
  }
}
