// Runtime checks of the reception status bodies (reception-contract.ts). `type()` so fields the server
// adds later do not break older clients; `Describe` keeps each struct in step with the contract. Kept
// apart from structs.ts so the first download does not carry them (DeliveryProgress is in
// messages-structs.ts: folder rows and message details carry one).
import { array, enums, nullable, number, string, type, type Describe } from 'superstruct';
import {
  DELIVERY_STATUSES,
  RECIPIENT_STATUSES,
  type ChannelDelivery,
  type ChannelProgress,
  type ReceptionRow,
  type RetryResult,
} from './reception-contract';
import { DeliveryProgressStruct } from './messages-structs';
import { CHANNEL_CODES } from './codes';

const ChannelDeliveryStruct: Describe<ChannelDelivery> = type({
  channel: enums(CHANNEL_CODES),
  status: enums(DELIVERY_STATUSES),
  address: nullable(string()),
  error: nullable(string()),
  attempts: number(),
  sent_at: nullable(string()),
  delivered_at: nullable(string()),
  read_at: nullable(string()),
  last_retry_at: nullable(string()),
  opted_out_at: nullable(string()),
  blocked_at: nullable(string()),
});

const ReceptionRowStruct: Describe<ReceptionRow> = type({
  recipient_id: number(),
  kind: enums(['funcionario', 'apoderado', 'estudiante'] as const),
  name: string(),
  student_names: nullable(string()),
  students: array(type({ name: string(), course: string() })),
  group: string(),
  email: nullable(string()),
  phone: nullable(string()),
  status: enums(RECIPIENT_STATUSES),
  channels: array(ChannelDeliveryStruct),
  device: nullable(enums(['blue', 'green', 'yellow', 'red'] as const)),
});

const ChannelProgressStruct: Describe<ChannelProgress> = type({ channel: enums(CHANNEL_CODES), progress: DeliveryProgressStruct });

const CountsStruct = type({
  all: number(),
  pending: number(),
  received: number(),
  read: number(),
  not_received: number(),
  error: number(),
  failed: number(),
});

/** `GET /messages/:id/reception`. */
export const ReceptionPageBodyStruct = type({
  data: array(ReceptionRowStruct),
  meta: type({
    current_page: number(),
    last_page: number(),
    per_page: number(),
    total: number(),
    counts: CountsStruct,
    progress: DeliveryProgressStruct,
    channels: array(ChannelProgressStruct),
    retryable: number(),
    awaiting_reads: number(),
  }),
  links: type({ first: string(), last: string(), prev: nullable(string()), next: nullable(string()) }),
});

const RetryResultStruct: Describe<RetryResult> = type({
  resent: number(),
  progress: DeliveryProgressStruct,
  channels: array(ChannelProgressStruct),
  retryable: number(),
});

/** `POST /messages/:id/reception/retry`. */
export const RetryResultBodyStruct = type({ data: RetryResultStruct });
