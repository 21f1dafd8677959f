import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { ControlRouteOptions } from '../faults/faults.routes.ts'
import { WorkDurationsBodySchema, WorkDurationsSchema } from './work.schemas.ts'
import * as work from './work.service.ts'

/** `/_cloudplane/work-durations`: how long asynchronous work takes (instant by default). */
export const workRoutes: FastifyPluginAsyncTypebox<ControlRouteOptions> = async (app, { ctx, docs }) => {
  app.get(
    '/work-durations',
    docs('How long each kind of asynchronous work takes, in seconds of the virtual clock', {
      response: { 200: WorkDurationsSchema },
    }),
    async () => work.showDurations(ctx),
  )
  app.put(
    '/work-durations',
    docs('Set the durations: a preset (instant, realistic) and/or seconds per kind of work', {
      body: WorkDurationsBodySchema,
      response: { 200: WorkDurationsSchema },
    }),
    async (request) => work.setDurations(ctx, request.body as Parameters<typeof work.setDurations>[1]),
  )
}
