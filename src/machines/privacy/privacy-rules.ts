// The privacy screens' rules: when a search is worth asking, and the addresses of the screens.
import { PRIVACY_Q_MIN, type PrivacyKind } from '../../../shared/privacy-contract';

/** A search the server answers with people (shorter ones name no one). */
export const isSearchable = (q: string): boolean => q.trim().length >= PRIVACY_Q_MIN;

export const PRIVACY_PATH = '/privacy';
export const privacyPersonPath = (kind: PrivacyKind, id: number): string => `/privacy/${kind}/${id}`;
