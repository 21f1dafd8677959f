import type { Db } from '../db/connect.ts'
import { upsertRows } from '../db/rows.ts'
import { type CatalogueSecurityQuestion, SECURITY_QUESTIONS } from './security-questions.ts'

/** Makes the question table match the catalogue; a question dropped from it takes its answers along. */
export async function syncSecurityQuestions(
  db: Db,
  questions: CatalogueSecurityQuestion[] = SECURITY_QUESTIONS,
): Promise<void> {
  await upsertRows(
    db,
    'security_questions',
    questions.map(({ id, question }) => ({ id, question })),
    ['id'],
  )
  const ids = questions.map((q) => q.id)
  if (ids.length > 0) await db.deleteFrom('security_questions').where('id', 'not in', ids).execute()
}
