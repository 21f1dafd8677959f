import type { Db } from '../../../db/connect.ts'
import type { SecurityQuestionRow } from './security-questions.table.ts'

export interface QuestionWithAnswer extends SecurityQuestionRow {
  response_sealed: string | null
}

/** Every catalogue question with the user's sealed answer, if any. */
export async function listQuestionsWithAnswers(db: Db, userId: number): Promise<QuestionWithAnswer[]> {
  return db
    .selectFrom('security_questions')
    .leftJoin('security_answers', (join) =>
      join
        .onRef('security_answers.question_id', '=', 'security_questions.id')
        .on('security_answers.user_id', '=', userId),
    )
    .select(['security_questions.id', 'security_questions.question', 'security_answers.response_sealed'])
    .orderBy('security_questions.id')
    .execute()
}

export async function findQuestions(db: Db, ids: number[]): Promise<SecurityQuestionRow[]> {
  if (ids.length === 0) return []
  return db.selectFrom('security_questions').selectAll().where('id', 'in', ids).execute()
}

export async function countAnswers(db: Db, userId: number): Promise<number> {
  const row = await db
    .selectFrom('security_answers')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', userId)
    .executeTakeFirst()
  return Number(row?.n ?? 0)
}

/** Replaces all of a user's answers: questions left out lose theirs. */
export async function replaceAnswers(
  db: Db,
  userId: number,
  answers: Array<{ questionId: number; responseSealed: string }>,
): Promise<void> {
  await db.deleteFrom('security_answers').where('user_id', '=', userId).execute()
  if (answers.length === 0) return
  await db
    .insertInto('security_answers')
    .values(
      answers.map((a) => ({ user_id: userId, question_id: a.questionId, response_sealed: a.responseSealed })),
    )
    .execute()
}
