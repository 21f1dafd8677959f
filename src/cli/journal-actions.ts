import type { CommandAction } from './command.ts'
import { callControl, printJson } from './control-client.ts'

const FILTER_PARAMS: Array<[string, string]> = [
  ['method', 'method'],
  ['path', 'path'],
  ['status', 'status'],
  ['username', 'username'],
  ['since', 'since'],
  ['until', 'until'],
  ['page', 'page'],
  ['page-size', 'page_size'],
]

export const JOURNAL_ACTIONS: Record<string, CommandAction['run']> = {
  'journal list': async (values) => {
    const query = new URLSearchParams()
    for (const [flag, param] of FILTER_PARAMS) {
      const value = values[flag]
      if (value !== undefined) query.set(param, flag === 'method' ? value.toUpperCase() : value)
    }
    const text = query.toString()
    await printJson(await callControl(values, { method: 'GET', path: `/journal${text ? `?${text}` : ''}` }))
  },
  'journal export-curl': async (values, [id]) => {
    const res = await callControl(values, {
      method: 'GET',
      path: `/journal/${encodeURIComponent(id ?? '')}/curl`,
    })
    process.stdout.write(await res.text())
  },
  'journal clear': async (values) => {
    await printJson(await callControl(values, { method: 'DELETE', path: '/journal' }))
  },
}
