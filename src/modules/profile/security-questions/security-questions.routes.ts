import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { route } from '../../../common/route-schemas.ts'
import { contextOf } from '../../../plugins/request-context.ts'
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
    route(
      profileRead,
      {
        operationId: 'getSecurityQuestions',
        summary: 'List the security questions with your answers (null where unanswered)',
        tags,
      },
      SecurityQuestionListSchema,
    ),
    async (request) => questions.listSecurityQuestions(contextOf(request), app.secretBox),
  )

  app.post(
    '/profile/security-questions',
    route(
      profileWrite,
      {
        operationId: 'postSecurityQuestions',
        summary: 'Answer exactly three security questions; earlier answers are replaced',
        tags,
        body: AnswerSecurityQuestionsBodySchema,
      },
      AnsweredSecurityQuestionsSchema,
    ),
    async (request) => questions.answerSecurityQuestions(contextOf(request), app.secretBox, request.body),
  )
}
