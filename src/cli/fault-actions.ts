import { WORK_KINDS } from '../jobs/work-durations.ts'
import type { CommandAction } from './command.ts'
import { UsageError, type Values } from './command.ts'
import { callControl, printJson } from './control-client.ts'
import { durationFlag } from './fault-commands.ts'

function number(values: Values, flag: string): number | undefined {
  const text = values[flag]
  if (text === undefined) return undefined
  const value = Number(text)
  if (text.trim() === '' || !Number.isFinite(value))
    throw new UsageError(`--${flag} must be a number, got "${text}"`)
  return value
}

/** The rule the flags describe, as the control API takes it. */
export function ruleBody(values: Values): Record<string, unknown> {
  const body: Record<string, unknown> = {}
  if (values.method !== undefined) body.method = values.method.toUpperCase()
  for (const key of ['path', 'username', 'seed', 'reason', 'field', 'job'] as const) {
    if (values[key] !== undefined) body[key] = values[key]
  }
  const numbers: Array<[string, string]> = [
    ['token-id', 'token_id'],
    ['probability', 'probability'],
    ['times', 'times'],
    ['status', 'status'],
    ['retry-after', 'retry_after'],
  ]
  for (const [flag, key] of numbers) {
    const value = number(values, flag)
    if (value !== undefined) body[key] = value
  }
  if (values.latency !== undefined) {
    const m = /^(\d+)(?:-(\d+))?$/.exec(values.latency)
    if (m === null) throw new UsageError(`--latency must be <ms> or <ms>-<ms>, got "${values.latency}"`)
    body.latency_ms = Number(m[1])
    if (m[2] !== undefined) body.latency_max_ms = Number(m[2])
  }
  if (values.drop !== undefined) {
    if (values.drop !== 'yes') throw new UsageError(`--drop takes yes, got "${values.drop}"`)
    body.drop = true
  }
  return body
}

const DURATION_FLAGS = WORK_KINDS.map(durationFlag)

export const FAULT_ACTIONS: Record<string, CommandAction['run']> = {
  'fault add': async (values) => {
    await printJson(await callControl(values, { method: 'POST', path: '/faults', body: ruleBody(values) }))
  },
  'fault list': async (values) => {
    await printJson(await callControl(values, { method: 'GET', path: '/faults' }))
  },
  'fault clear': async (values) => {
    const id = number(values, 'id')
    const path = id === undefined ? '/faults' : `/faults/${id}`
    await printJson(await callControl(values, { method: 'DELETE', path }))
  },
  'fault preset': async (values, [name]) => {
    const body: Record<string, unknown> = {}
    const share = number(values, 'share')
    if (share !== undefined) body.share = share
    if (values.seed !== undefined) body.seed = values.seed
    if (values.path !== undefined) body.path = values.path
    const path = `/faults/presets/${encodeURIComponent(name ?? '')}`
    await printJson(await callControl(values, { method: 'POST', path, body }))
  },
  'region outage': async (values, [regionId, status]) => {
    if (status !== 'outage' && status !== 'ok') throw new UsageError('the status is outage or ok')
    const path = `/regions/${encodeURIComponent(regionId ?? '')}/status`
    await printJson(await callControl(values, { method: 'PUT', path, body: { status } }))
  },
  'work durations': async (values) => {
    const body: Record<string, unknown> = {}
    if (values.preset !== undefined) body.preset = values.preset
    for (const flag of DURATION_FLAGS) {
      const value = number(values, flag)
      if (value !== undefined) body[flag.replaceAll('-', '_')] = value
    }
    const call =
      Object.keys(body).length === 0
        ? ({ method: 'GET', path: '/work-durations' } as const)
        : ({ method: 'PUT', path: '/work-durations', body } as const)
    await printJson(await callControl(values, call))
  },
}
