import type { Command, OptionSpec } from './command.ts'
import { controlCommandsOf } from './control-commands.ts'

const RULE: Record<string, OptionSpec> = {
  method: { value: '<method>', help: 'only requests with this method' },
  path: { value: '<glob>', help: 'only paths matching this, * for anything: /v4/compute/instances*' },
  username: { value: '<name>', help: "only requests in this user's account" },
  'token-id': { value: '<id>', help: 'only requests made with this token' },
  probability: { value: '<0..1>', help: 'the share of matching requests it fires on [1]' },
  times: { value: '<n>', help: 'fire at most this many times' },
  seed: { value: '<text>', help: 'makes the random draws repeatable' },
  status: { value: '<code>', help: "answer with this status and the real service's error body" },
  reason: { value: '<text>', help: "the error's reason (with --status)" },
  field: { value: '<name>', help: "the error's field (with --status 400)" },
  'retry-after': { value: '<seconds>', help: 'Retry-After of a 429 or 503' },
  latency: { value: '<ms>[-<ms>]', help: 'delay the request by this long, or a random time in the range' },
  drop: { value: 'yes', help: 'close the connection without an answer' },
  job: { value: '<work>', help: 'fail this kind of timed work (compute_boot, image_capture, …)' },
}

const PRESET: Record<string, OptionSpec> = {
  share: { value: '<0..1>', help: 'unstable: the share of requests that fail [0.3]' },
  seed: { value: '<text>', help: 'makes the random draws repeatable' },
  path: { value: '<glob>', help: 'only paths matching this' },
}

const DURATIONS: Record<string, OptionSpec> = {
  preset: { value: 'instant|realistic', help: 'start from these durations' },
  'compute-create': { value: '<seconds>', help: 'provisioning a compute' },
  'compute-boot': { value: '<seconds>', help: 'booting' },
  'compute-reboot': { value: '<seconds>', help: 'rebooting' },
  'compute-shutdown': { value: '<seconds>', help: 'shutting down' },
  'image-capture': { value: '<seconds>', help: 'capturing an image from a disk' },
}

const command = controlCommandsOf(async () => (await import('./fault-actions.ts')).FAULT_ACTIONS)

/** Faults and latency on purpose, regions in an outage, and how long asynchronous work takes. */
export const FAULT_COMMANDS: Command[] = [
  command('fault add', 'add a fault rule: a status, a latency, a dropped connection or a failing job', RULE),
  command('fault list', 'list the fault rules, with how often each fired'),
  command('fault clear', 'remove every fault rule, or one (--id)', {
    id: { value: '<id>', help: 'only this rule' },
  }),
  command('fault preset', 'apply a preset: offline, unstable or maintenance', PRESET, ['name']),
  command('region outage', 'mark a region outage (creates there are refused) or ok again', {}, [
    'region-id',
    'status',
  ]),
  command('work durations', 'show or set how long asynchronous work takes, in seconds', DURATIONS),
]
