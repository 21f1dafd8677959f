import type { Selectable } from 'kysely'

/** The shipped catalogue of questions (src/catalogue/security-questions.ts). */
export interface SecurityQuestionTable {
  id: number
  question: string
}

/** A user's answer, sealed with the server key (see security-questions.service.ts for why not hashed). */
export interface SecurityAnswerTable {
  user_id: number
  question_id: number
  response_sealed: string
}

export type SecurityQuestionRow = Selectable<SecurityQuestionTable>
export type SecurityAnswerRow = Selectable<SecurityAnswerTable>
