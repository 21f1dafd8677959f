import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { ControlRouteOptions } from '../faults/faults.routes.ts'
import { JournalIdParamsSchema, JournalPageSchema, JournalQuerySchema } from './journal.schemas.ts'
import * as journal from './journal.service.ts'
import type { JournalWriter } from './journal-writer.ts'

/** `/_cloudplane/journal`: the requests the API answered, newest first. */
export const journalRoutes: FastifyPluginAsyncTypebox<
  ControlRouteOptions & { writer: JournalWriter }
> = async (app, { ctx, docs, writer }) => {
  app.get(
    '/journal',
    docs('The request journal, newest first: by method, path prefix, status, account, time', {
      querystring: JournalQuerySchema,
      response: { 200: JournalPageSchema },
    }),
    async (request) => journal.listJournal(ctx, writer, request.query),
  )
  app.get(
    '/journal/:id/curl',
    docs('One journal entry as a curl command line', { params: JournalIdParamsSchema }),
    async (request, reply) => {
      const base = `${request.protocol}://${request.host}`
      const command = await journal.journalCurl(ctx, writer, Number(request.params.id), base)
      return reply.type('text/plain; charset=utf-8').send(`${command}\n`)
    },
  )
  app.delete('/journal', docs('Clear the journal'), async () => journal.clearAll(ctx, writer))
}
