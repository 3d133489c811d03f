// The figures one connectivity row (the school, a level or a course: shared/dashboard-contract.ts
// `ConnectivityRow`) shows beyond what the server sends, as pure rules for the connectivity screens
// (connectivity.ts, course-connectivity.ts): the guardians counted in the device mix, and the share of
// guardians each channel reaches. Views read these; they compute nothing.
import type { ChannelCode } from '../../shared/codes';
import { DEVICE_STATUSES } from '../../shared/compose-contract';
import type { ConnectivityRow } from '../../shared/dashboard-contract';

/** Guardians in the device mix (blue, green, yellow and red together); 0: nothing to draw. */
export const deviceTotal = (row: Pick<ConnectivityRow, 'devices'>): number => DEVICE_STATUSES.reduce((sum, status) => sum + row.devices[status], 0);

/** The share (0–1) of the row's guardians a channel reaches; null when the row has no guardians ("—"). */
export const reachShare = (row: Pick<ConnectivityRow, 'reach' | 'guardians'>, channel: ChannelCode): number | null =>
  row.guardians > 0 ? row.reach[channel] / row.guardians : null;
