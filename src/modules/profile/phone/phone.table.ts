import type { Generated, Selectable } from 'kysely'

/** A phone verification in progress: one per user, the code sealed so it can be sent again. */
export interface PhoneVerificationTable {
  user_id: number
  /** E.164 */
  phone_number: string
  code_sealed: string
  expiry: string
  attempts: number
  created: string
}

/** One SMS code sent: counted for the resend cooldowns and daily caps. */
export interface PhoneCodeSendTable {
  id: Generated<number>
  user_id: number
  phone_number: string
  sent: string
}

export type PhoneVerificationRow = Selectable<PhoneVerificationTable>
