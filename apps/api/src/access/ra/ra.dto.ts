import { RaStatus } from '@twofold/domain';

/**
 * The model of every `ra`-family answer, refusals included: clients deserialize each
 * field (a directory server crashes on `model: null`). Unknown values are null; `id` is null only when
 * no request was recorded. Geo fields are null: there is no geo database.
 */
export interface RaModelDto {
  id: string | null;
  identity: string | null;
  status: RaStatus;
  replyMessage: string;
  /** the kind of the authenticator that accepted the code */
  authenticator: string | null;
  authenticatorId: string | null;
  /** the display name of that authenticator (the account it holds, as clients log it) */
  account: string | null;
  /** the user's first stored phone, E.164 */
  phone: string | null;
  bypassed: boolean;
  countryCode: string | null;
  region: string | null;
  city: string | null;
}
