import type { Static } from 'typebox'
import { badRequest } from '../../../common/errors.ts'
import { nowTimestamp } from '../../../common/time.ts'
import { WORK_KINDS } from '../../../jobs/work-durations.ts'
import { setRegionStatus } from '../../regions/regions.service.ts'
import type { ControlContext } from '../control-context.ts'
import type { FaultEffect, FaultRule } from './fault-rules.ts'
import {
  deleteFaultRules,
  findAccountOfUsername,
  insertFaultRules,
  listFaultRules,
  type NewFaultRule,
} from './faults.repository.ts'
import type { FaultRuleBodySchema, PresetBodySchema } from './faults.schemas.ts'

type FaultRuleBody = Static<typeof FaultRuleBodySchema>
type PresetBody = Static<typeof PresetBodySchema>
export type PresetName = 'offline' | 'unstable' | 'maintenance'

/** A rule's effect in the fields a rule is added with, so a listed rule can be posted again. */
function effectView(effect: FaultEffect) {
  switch (effect.kind) {
    case 'status':
      return {
        kind: effect.kind,
        status: effect.status,
        ...(effect.reason !== undefined && { reason: effect.reason }),
        ...(effect.field !== undefined && { field: effect.field }),
        ...(effect.retryAfter !== undefined && { retry_after: effect.retryAfter }),
      }
    case 'latency':
      return { kind: effect.kind, latency_ms: effect.minMs, latency_max_ms: effect.maxMs }
    default:
      return effect
  }
}

export function ruleView(rule: FaultRule) {
  return {
    id: rule.id,
    created: rule.created,
    method: rule.method,
    path: rule.path,
    account_id: rule.accountId,
    token_id: rule.tokenId,
    probability: rule.probability,
    times: rule.times,
    fired: rule.fired,
    seed: rule.seed,
    preset: rule.preset,
    effect: effectView(rule.effect),
  }
}

function effectOf(body: FaultRuleBody): FaultEffect {
  const chosen = [
    body.status !== undefined,
    body.latency_ms !== undefined,
    body.drop === true,
    body.job !== undefined,
  ].filter(Boolean).length
  if (chosen !== 1) throw badRequest('give exactly one of status, latency_ms, drop or job', 'status')
  if (body.status !== undefined) {
    return {
      kind: 'status',
      status: body.status,
      ...(body.reason !== undefined && { reason: body.reason }),
      ...(body.field !== undefined && { field: body.field }),
      ...(body.retry_after !== undefined && { retryAfter: body.retry_after }),
    }
  }
  if (body.latency_ms !== undefined) {
    const max = body.latency_max_ms ?? body.latency_ms
    if (max < body.latency_ms) throw badRequest('must not be below latency_ms', 'latency_max_ms')
    return { kind: 'latency', minMs: body.latency_ms, maxMs: max }
  }
  if (body.job !== undefined) {
    if (!(WORK_KINDS as readonly string[]).includes(body.job)) {
      throw badRequest(`must be one of ${WORK_KINDS.join(', ')}`, 'job')
    }
    return { kind: 'job', job: body.job }
  }
  return { kind: 'drop' }
}

export async function listRules(ctx: ControlContext) {
  return { data: (await listFaultRules(ctx.db)).map(ruleView) }
}

export async function addRule(ctx: ControlContext, body: FaultRuleBody) {
  const effect = effectOf(body)
  let accountId: number | null = null
  if (body.username !== undefined) {
    const found = await findAccountOfUsername(ctx.db, body.username)
    if (found === undefined) throw badRequest(`no user named "${body.username}"`, 'username')
    accountId = found
  }
  const [rule] = await insertFaultRules(ctx.db, [
    {
      created: nowTimestamp(ctx.clock),
      method: body.method ?? null,
      path: body.path ?? null,
      accountId,
      tokenId: body.token_id ?? null,
      probability: body.probability ?? 1,
      times: body.times ?? null,
      seed: body.seed ?? null,
      preset: null,
      effect,
    },
  ])
  return ruleView(rule as FaultRule)
}

/** The console mocks' presets, as ordinary rules (listed, counted and cleared like the others). */
function presetRule(ctx: ControlContext, name: PresetName, body: PresetBody): NewFaultRule {
  const base = {
    created: nowTimestamp(ctx.clock),
    method: null,
    path: body.path ?? null,
    accountId: null,
    tokenId: null,
    times: null,
    seed: body.seed ?? null,
    preset: name,
  }
  switch (name) {
    case 'offline':
      return { ...base, probability: 1, effect: { kind: 'drop' } }
    case 'maintenance':
      return { ...base, probability: 1, effect: { kind: 'status', status: 503 } }
    case 'unstable':
      return { ...base, probability: body.share ?? 0.3, effect: { kind: 'status', status: 500 } }
  }
}

export async function applyPreset(ctx: ControlContext, name: PresetName, body: PresetBody) {
  const rules = await insertFaultRules(ctx.db, [presetRule(ctx, name, body)])
  return { data: rules.map(ruleView) }
}

export async function clearRules(ctx: ControlContext): Promise<{ deleted: number }> {
  return { deleted: await deleteFaultRules(ctx.db) }
}

export async function deleteRule(ctx: ControlContext, id: number): Promise<{ deleted: number }> {
  const deleted = await deleteFaultRules(ctx.db, id)
  if (deleted === 0) throw badRequest(`no fault rule ${id}`, 'id')
  return { deleted }
}

/** A region in an `outage` refuses creates there (see regions' requireAvailableRegion). */
export async function markRegion(ctx: ControlContext, regionId: string, status: 'ok' | 'outage') {
  if (!(await setRegionStatus(ctx.db, regionId, status)))
    throw badRequest(`no region "${regionId}"`, 'region')
  return { region: regionId, status }
}
