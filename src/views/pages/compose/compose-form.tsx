import { Actions } from './actions';
import { AttachmentsField } from './attachments-field';
import { ChannelsField } from './channels-field';
import { ContentField } from './content-field';
import { EstimateSummary } from './estimate-summary';
import type { ComposeActor } from './field';
import { LeaveDialog } from './leave-dialog';
import { OptionsField } from './options-field';
import { QuotaBanner } from './quota-banner';
import { RecipientsField } from './recipients-field';
import { ScheduleField } from './schedule-field';
import { SignaturePreview } from './signature-preview';
import { TemplateField } from './template-picker';
import { TitleField } from './title-field';

/** The form's sections, in the order the rules name fields (a refused send focuses the first invalid one). */
export function ComposeForm({ compose }: { compose: ComposeActor }) {
  return (
    // Not a <form>: sending is always an explicit button press (Enter in the title must not send), and
    // Radix checkboxes outside a form need no hidden mirror inputs.
    <div data-slot="compose-form" className="flex flex-col gap-6 rounded-lg border bg-card p-4 sm:p-6">
      <QuotaBanner compose={compose} />
      <TemplateField compose={compose} />
      <TitleField compose={compose} />
      <RecipientsField compose={compose} />
      <ChannelsField compose={compose} />
      <ContentField compose={compose} />
      <SignaturePreview compose={compose} />
      <AttachmentsField compose={compose} />
      <OptionsField compose={compose} />
      <ScheduleField compose={compose} />
      <EstimateSummary compose={compose} />
      <Actions compose={compose} />
      <LeaveDialog compose={compose} />
    </div>
  );
}
