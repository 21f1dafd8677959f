import type { Db } from '../db/connect.ts'
import { type CatalogueSecurityQuestion, SECURITY_QUESTIONS } from './security-questions.ts'

/** Makes the question table match the catalogue; a question dropped from it takes its answers along. */
export async function syncSecurityQuestions(
  db: Db,
  questions: CatalogueSecurityQuestion[] = SECURITY_QUESTIONS,
): Promise<void> {
  for (const { id, question } of questions) {
    await db
      .insertInto('security_questions')
      .values({ id, question })
      .onConflict((oc) => oc.column('id').doUpdateSet({ question }))
      .execute()
  }
  const ids = questions.map((q) => q.id)
  if (ids.length > 0) await db.deleteFrom('security_questions').where('id', 'not in', ids).execute()
}
