import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { parseId } from '../../common/ids.ts'
import { parsePageQuery } from '../../common/pagination.ts'
import {
  EmptyObjectSchema,
  errorResponses,
  FilterHeadersSchema,
  PageQuerySchema,
} from '../../common/schemas.ts'
import { requireActor } from '../../plugins/auth.ts'
import type { Scope } from '../auth/scopes.ts'
import { EventPageSchema, EventParamsSchema, EventSchema } from './events.schemas.ts'
import * as events from './events.service.ts'

const tags = ['Account events']
const auth = { scopes: ['events:read_only'] as Scope[] }

export const eventsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/account/events',
    {
      schema: {
        operationId: 'getEvents',
        summary: "List the account's events of the last 90 days, newest first",
        tags,
        querystring: PageQuerySchema,
        headers: FilterHeadersSchema,
        response: { 200: EventPageSchema, ...errorResponses },
      },
      config: { auth },
    },
    async (request, reply) => {
      // Already JSON (rendered by the database), so it is sent as it is; the schema documents it.
      reply.type('application/json; charset=utf-8')
      return events.listEventsJson(
        app.db,
        app.clock,
        requireActor(request),
        parsePageQuery(request.query),
        request.headers['x-filter'],
      )
    },
  )

  app.get(
    '/account/events/:eventId',
    {
      schema: {
        operationId: 'getEvent',
        summary: 'View an event',
        tags,
        params: EventParamsSchema,
        response: { 200: EventSchema, ...errorResponses },
      },
      config: { auth },
    },
    async (request) =>
      events.getEvent(app.db, app.clock, requireActor(request), parseId(request.params.eventId)),
  )

  app.post(
    '/account/events/:eventId/read',
    {
      schema: {
        operationId: 'markEventRead',
        summary: 'Mark an event as read',
        tags,
        params: EventParamsSchema,
        response: { 200: EmptyObjectSchema, ...errorResponses },
      },
      config: { auth },
    },
    async (request) => {
      await events.markRead(app.db, app.clock, requireActor(request), parseId(request.params.eventId))
      return {}
    },
  )

  app.post(
    '/account/events/:eventId/seen',
    {
      schema: {
        operationId: 'markEventsSeen',
        summary: 'Mark this event and every earlier one as seen',
        tags,
        params: EventParamsSchema,
        response: { 200: EmptyObjectSchema, ...errorResponses },
      },
      config: { auth },
    },
    async (request) => {
      await events.markSeen(app.db, app.clock, requireActor(request), parseId(request.params.eventId))
      return {}
    },
  )
}
