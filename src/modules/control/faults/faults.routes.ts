import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { ControlDocs } from '../control.routes.ts'
import type { ControlContext } from '../control-context.ts'
import {
  FaultIdParamsSchema,
  FaultRuleBodySchema,
  FaultRuleListSchema,
  FaultRuleSchema,
  PresetBodySchema,
  PresetParamsSchema,
  RegionParamsSchema,
  RegionStatusBodySchema,
} from './faults.schemas.ts'
import * as faults from './faults.service.ts'

export interface ControlRouteOptions {
  ctx: ControlContext
  docs: ControlDocs
}

/** `/_cloudplane/faults`: fault and latency rules, and the presets. */
export const faultRoutes: FastifyPluginAsyncTypebox<ControlRouteOptions> = async (app, { ctx, docs }) => {
  app.get(
    '/faults',
    docs('List the fault rules, with how often each fired', { response: { 200: FaultRuleListSchema } }),
    async () => faults.listRules(ctx),
  )
  app.post(
    '/faults',
    docs('Add a fault rule', {
      body: FaultRuleBodySchema,
      response: { 200: FaultRuleSchema },
    }),
    async (request) => faults.addRule(ctx, request.body),
  )
  app.delete('/faults', docs('Remove every fault rule'), async () => faults.clearRules(ctx))
  app.delete('/faults/:id', docs('Remove one fault rule', { params: FaultIdParamsSchema }), async (request) =>
    faults.deleteRule(ctx, Number(request.params.id)),
  )
  app.post(
    '/faults/presets/:name',
    {
      schema: {
        ...docs('Apply a preset: offline, unstable (a share of requests fail) or maintenance').schema,
        params: PresetParamsSchema,
        body: PresetBodySchema,
        response: { 200: FaultRuleListSchema },
      },
      // A bodiless POST applies the preset with its defaults.
      preValidation: async (request) => {
        request.body ??= {}
      },
    },
    async (request) => faults.applyPreset(ctx, request.params.name as faults.PresetName, request.body ?? {}),
  )
  app.put(
    '/regions/:regionId/status',
    docs('Mark a region `outage` (creates there are refused) or `ok` again', {
      params: RegionParamsSchema,
      body: RegionStatusBodySchema,
    }),
    async (request) => faults.markRegion(ctx, request.params.regionId, request.body.status),
  )
}
