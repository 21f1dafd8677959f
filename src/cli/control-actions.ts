import { readFileSync } from 'node:fs'
import { buffer } from 'node:stream/consumers'
import type { CommandAction } from './command.ts'
import { callControl, printJson } from './control-client.ts'

const readInput = async (file: string): Promise<Buffer> =>
  file === '-' ? buffer(process.stdin) : readFileSync(file)

const enc = (text: string | undefined) => encodeURIComponent(text ?? '')

/** What each control command does: one call to the control API of the running server. */
export const CONTROL_ACTIONS: Record<string, CommandAction['run']> = {
  reset: async (values) => {
    const body = values.username === undefined ? {} : { username: values.username }
    await printJson(await callControl(values, { method: 'POST', path: '/reset', body }))
  },
  'snapshot save': async (values, [name]) => {
    await printJson(await callControl(values, { method: 'POST', path: '/snapshots', body: { name } }))
  },
  'snapshot list': async (values) => {
    await printJson(await callControl(values, { method: 'GET', path: '/snapshots' }))
  },
  'snapshot restore': async (values, [name]) => {
    await printJson(await callControl(values, { method: 'POST', path: `/snapshots/${enc(name)}/restore` }))
  },
  'snapshot delete': async (values, [name]) => {
    await callControl(values, { method: 'DELETE', path: `/snapshots/${enc(name)}` })
  },
  'snapshot export': async (values, [name]) => {
    const res = await callControl(values, { method: 'GET', path: `/snapshots/${enc(name)}/export` })
    process.stdout.write(Buffer.from(await res.arrayBuffer()))
  },
  'snapshot import': async (values, [name, file]) => {
    const raw = { bytes: await readInput(file ?? '-'), type: 'application/octet-stream' }
    await printJson(await callControl(values, { method: 'PUT', path: `/snapshots/${enc(name)}`, raw }))
  },
  seed: async (values, [file]) => {
    const raw = { bytes: await readInput(file ?? '-'), type: 'application/yaml' }
    await printJson(await callControl(values, { method: 'POST', path: '/seed', raw }))
  },
  'clock show': async (values) => {
    await printJson(await callControl(values, { method: 'GET', path: '/clock' }))
  },
  'clock advance': async (values, [by]) => {
    await printJson(await callControl(values, { method: 'POST', path: '/clock/advance', body: { by } }))
  },
  'clock set': async (values, [at]) => {
    await printJson(await callControl(values, { method: 'POST', path: '/clock/set', body: { at } }))
  },
  'clock resume': async (values) => {
    await printJson(await callControl(values, { method: 'POST', path: '/clock/resume' }))
  },
  'state dump': async (values, [username]) => {
    await printJson(await callControl(values, { method: 'GET', path: `/accounts/${enc(username)}/state` }))
  },
}
