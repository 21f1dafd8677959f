import { WORK_KINDS } from '../jobs/work-durations.ts'
import type { Command, OptionSpec } from './command.ts'
import { controlCommandsOf, opt, REQUEST_OPTIONS } from './control-commands.ts'

const { method, username, seed } = REQUEST_OPTIONS

const RULE: Record<string, OptionSpec> = {
  method,
  path: opt('<glob>', 'only paths matching this, * for anything: /v4/compute/instances*'),
  username,
  'token-id': opt('<id>', 'only requests made with this token'),
  probability: opt('<0..1>', 'the share of matching requests it fires on [1]'),
  times: opt('<n>', 'fire at most this many times'),
  seed,
  status: opt('<code>', "answer with this status and the real service's error body"),
  reason: opt('<text>', "the error's reason (with --status)"),
  field: opt('<name>', "the error's field (with --status 400)"),
  'retry-after': opt('<seconds>', 'Retry-After of a 429 or 503'),
  latency: opt('<ms>[-<ms>]', 'delay the request by this long, or a random time in the range'),
  drop: opt('yes', 'close the connection without an answer'),
  job: opt('<work>', `fail this kind of timed work (${WORK_KINDS.join(', ')})`),
}

const PRESET: Record<string, OptionSpec> = {
  share: opt('<0..1>', 'unstable: the share of requests that fail [0.3]'),
  seed,
  path: opt('<glob>', 'only paths matching this'),
}

/** The flag of a kind of work: `compute_boot` is `--compute-boot`. */
export const durationFlag = (kind: string): string => kind.replaceAll('_', '-')

const DURATIONS: Record<string, OptionSpec> = {
  preset: opt('instant|realistic', 'start from these durations'),
  ...Object.fromEntries(
    WORK_KINDS.map((kind) => [durationFlag(kind), opt('<seconds>', `how long ${kind} work takes`)]),
  ),
}

const command = controlCommandsOf(async () => (await import('./fault-actions.ts')).FAULT_ACTIONS)

/** Faults and latency on purpose, regions in an outage, and how long asynchronous work takes. */
export const FAULT_COMMANDS: Command[] = [
  command('fault add', 'add a fault rule: a status, a latency, a dropped connection or a failing job', RULE),
  command('fault list', 'list the fault rules, with how often each fired'),
  command('fault clear', 'remove every fault rule, or one (--id)', { id: opt('<id>', 'only this rule') }),
  command('fault preset', 'apply a preset: offline, unstable or maintenance', PRESET, ['name']),
  command('region outage', 'mark a region outage (creates there are refused) or ok again', {}, [
    'region-id',
    'status',
  ]),
  command('work durations', 'show or set how long asynchronous work takes, in seconds', DURATIONS),
]
