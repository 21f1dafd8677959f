import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { parseId } from '../../common/ids.ts'
import { sendPage } from '../../common/rendered-page-cache.ts'
import { listInput, listRoute, route } from '../../common/route-schemas.ts'
import { EmptyObjectSchema } from '../../common/schemas.ts'
import { contextOf } from '../../plugins/request-context.ts'
import type { Scope } from '../auth/scopes.ts'
import { EventPageSchema, EventParamsSchema, EventSchema } from './events.schemas.ts'
import * as events from './events.service.ts'

const tags = ['Account events']
const auth = { scopes: ['events:read_only'] as Scope[] }

export const eventsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/account/events',
    listRoute(
      // The read that stamps a kept page, or the page's own statement, confirms a remembered
      // token (events.service.ts).
      { ...auth, confirmedInStatement: true },
      {
        operationId: 'getEvents',
        summary: "List the account's events of the last 90 days, newest first",
        tags,
      },
      EventPageSchema,
    ),
    async (request, reply) =>
      sendPage(reply, await events.listEventsPage(contextOf(request), listInput(request))),
  )

  app.get(
    '/account/events/:eventId',
    route(
      auth,
      { operationId: 'getEvent', summary: 'View an event', tags, params: EventParamsSchema },
      EventSchema,
    ),
    async (request) => events.getEvent(contextOf(request), { eventId: parseId(request.params.eventId) }),
  )

  app.post(
    '/account/events/:eventId/read',
    route(
      auth,
      { operationId: 'markEventRead', summary: 'Mark an event as read', tags, params: EventParamsSchema },
      EmptyObjectSchema,
    ),
    async (request) => {
      await events.markRead(contextOf(request), { eventId: parseId(request.params.eventId) })
      return {}
    },
  )

  app.post(
    '/account/events/:eventId/seen',
    route(
      auth,
      {
        operationId: 'markEventsSeen',
        summary: 'Mark this event and every earlier one as seen',
        tags,
        params: EventParamsSchema,
      },
      EmptyObjectSchema,
    ),
    async (request) => {
      await events.markSeen(contextOf(request), { eventId: parseId(request.params.eventId) })
      return {}
    },
  )
}
