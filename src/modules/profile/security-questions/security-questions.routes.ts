import { routeModule } from '../../../common/route-table.ts'
import { contextOf } from '../../../plugins/request-context.ts'
import { profileRead, profileWrite, PROFILE_TAGS as tags } from '../profile-scopes.ts'
import {
  AnsweredSecurityQuestionsSchema,
  AnswerSecurityQuestionsBodySchema,
  SecurityQuestionListSchema,
} from './security-questions.schemas.ts'
import * as questions from './security-questions.service.ts'

export const securityQuestionsRoutes = routeModule({ tags, context: contextOf }, (api, app) => {
  api.get('/profile/security-questions', {
    auth: profileRead,
    operationId: 'getSecurityQuestions',
    summary: 'List the security questions with your answers (null where unanswered)',
    response: SecurityQuestionListSchema,
    handler: (ctx) => questions.listSecurityQuestions(ctx, app.secretBox),
  })

  api.post('/profile/security-questions', {
    auth: profileWrite,
    operationId: 'postSecurityQuestions',
    summary: 'Answer exactly three security questions; earlier answers are replaced',
    body: AnswerSecurityQuestionsBodySchema,
    response: AnsweredSecurityQuestionsSchema,
    handler: (ctx, request) => questions.answerSecurityQuestions(ctx, app.secretBox, request.body),
  })
})
