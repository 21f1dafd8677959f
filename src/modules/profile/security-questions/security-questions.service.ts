import { inContextTransaction, type RequestContext } from '../../../common/context.ts'
import { ErrorCollector } from '../../../common/errors.ts'
import type { Db } from '../../../db/connect.ts'
import { lockUser } from '../../users/users.service.ts'
import type { SecretBox } from '../secrets/secret-box.ts'
import * as repo from './security-questions.repository.ts'
import type {
  AnsweredSecurityQuestions,
  AnswerSecurityQuestionsBody,
  SecurityQuestionList,
} from './security-questions.schemas.ts'

/**
 * Answers are sealed (AES-256-GCM with the server key), not hashed: the list shows each user the
 * answers they gave, as the real service does (the console displays them for review), and a hash
 * could not be shown back. They are never stored in plain text, and a sealed answer only opens for
 * its own user and question (authenticated context).
 */
export const ANSWERS_REQUIRED = 3

const context = (userId: number, questionId: number) => `security-answer:${userId}:${questionId}`

export async function listSecurityQuestions(
  ctx: RequestContext,
  box: SecretBox,
): Promise<SecurityQuestionList> {
  const { actor } = ctx
  const rows = await repo.listQuestionsWithAnswers(ctx.db, actor.user.id)
  return {
    security_questions: rows.map((row) => ({
      id: row.id,
      question: row.question,
      response:
        row.response_sealed === null
          ? null
          : (box.open('security-answer', row.response_sealed, context(actor.user.id, row.id)) ?? null),
    })),
  }
}

/** Exactly three distinct questions; the answers replace all earlier ones (rule 1). */
export async function answerSecurityQuestions(
  ctx: RequestContext,
  box: SecretBox,
  body: AnswerSecurityQuestionsBody,
): Promise<AnsweredSecurityQuestions> {
  const answers = body.security_questions
  const errors = new ErrorCollector()
  if (answers.length !== ANSWERS_REQUIRED) {
    errors.add(`You must answer exactly ${ANSWERS_REQUIRED} security questions`, 'security_questions')
    errors.throwIfAny()
  }
  const questions = new Map(
    (await repo.findQuestions(ctx.db, [...new Set(answers.map((a) => a.question_id))])).map((q) => [
      q.id,
      q.question,
    ]),
  )
  const seen = new Set<number>()
  answers.forEach((answer, i) => {
    const field = `security_questions[${i}].question_id`
    if (!questions.has(answer.question_id)) errors.add('Not a valid security question', field)
    else if (seen.has(answer.question_id))
      errors.add('Each security question may be answered only once', field)
    seen.add(answer.question_id)
  })
  errors.throwIfAny()
  const userId = ctx.actor.user.id
  await inContextTransaction(ctx, async ({ db: trx }) => {
    await lockUser(trx, userId)
    await repo.replaceAnswers(
      trx,
      userId,
      answers.map((a) => ({
        questionId: a.question_id,
        responseSealed: box.seal('security-answer', a.response, context(userId, a.question_id)),
      })),
    )
  })
  return {
    security_questions: answers.map((a) => ({
      question_id: a.question_id,
      response: a.response,
      security_question: questions.get(a.question_id) as string,
    })),
  }
}

export async function hasAnsweredSecurityQuestions(db: Db, userId: number): Promise<boolean> {
  return (await repo.countAnswers(db, userId)) >= ANSWERS_REQUIRED
}
