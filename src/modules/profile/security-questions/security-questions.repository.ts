import type { Db } from '../../../db/connect.ts'
import { countRows, deleteRows, insertRows, rowsIn } from '../../../db/rows.ts'
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

export const findQuestions = (db: Db, ids: number[]) => rowsIn(db, 'security_questions', 'id', ids)

export const countAnswers = (db: Db, userId: number) => countRows(db, 'security_answers', { user_id: userId })

/** Replaces all of a user's answers: questions left out lose theirs. */
export async function replaceAnswers(
  db: Db,
  userId: number,
  answers: Array<{ questionId: number; responseSealed: string }>,
): Promise<void> {
  await deleteRows(db, 'security_answers', { user_id: userId })
  const rows = answers.map((a) => ({
    user_id: userId,
    question_id: a.questionId,
    response_sealed: a.responseSealed,
  }))
  await insertRows(db, 'security_answers', rows)
}
