import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { errorResponses } from '../../../common/schemas.ts'
import { requireActor } from '../../../plugins/auth.ts'
import { profileRead, profileWrite, PROFILE_TAGS as tags } from '../profile-scopes.ts'
import {
  AnsweredSecurityQuestionsSchema,
  AnswerSecurityQuestionsBodySchema,
  SecurityQuestionListSchema,
} from './security-questions.schemas.ts'
import * as questions from './security-questions.service.ts'

export const securityQuestionsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/profile/security-questions',
    {
      schema: {
        operationId: 'getSecurityQuestions',
        summary: 'List the security questions with your answers (null where unanswered)',
        tags,
        response: { 200: SecurityQuestionListSchema, ...errorResponses },
      },
      config: { auth: profileRead },
    },
    async (request) => questions.listSecurityQuestions(app.db, app.secretBox, requireActor(request)),
  )

  app.post(
    '/profile/security-questions',
    {
      schema: {
        operationId: 'postSecurityQuestions',
        summary: 'Answer exactly three security questions; earlier answers are replaced',
        tags,
        body: AnswerSecurityQuestionsBodySchema,
        response: { 200: AnsweredSecurityQuestionsSchema, ...errorResponses },
      },
      config: { auth: profileWrite },
    },
    async (request) =>
      questions.answerSecurityQuestions(app.db, app.secretBox, requireActor(request), request.body),
  )
}
