import { type Static, Type } from 'typebox'
import { Nullable } from '../../../common/schemas.ts'

export const SecurityQuestionListSchema = Type.Object({
  security_questions: Type.Array(
    Type.Object({
      id: Type.Integer(),
      question: Type.String(),
      response: Nullable(Type.String()),
    }),
  ),
})
export type SecurityQuestionList = Static<typeof SecurityQuestionListSchema>

/** The count (exactly three) and uniqueness are checked by the service, with the API's wording. */
export const AnswerSecurityQuestionsBodySchema = Type.Object({
  security_questions: Type.Array(
    Type.Object({
      // Bounded so that no value can overflow a database integer; unknown ids get the service's 400.
      question_id: Type.Integer({ minimum: -2147483648, maximum: 2147483647 }),
      response: Type.String({ minLength: 3, maxLength: 17 }),
    }),
    { maxItems: 100, description: 'exactly three answers, each to a different question' },
  ),
})
export type AnswerSecurityQuestionsBody = Static<typeof AnswerSecurityQuestionsBodySchema>

export const AnsweredSecurityQuestionsSchema = Type.Object({
  security_questions: Type.Array(
    Type.Object({
      question_id: Type.Integer(),
      response: Type.String(),
      security_question: Type.String(),
    }),
  ),
})
export type AnsweredSecurityQuestions = Static<typeof AnsweredSecurityQuestionsSchema>
