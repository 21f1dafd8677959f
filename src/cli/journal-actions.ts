import type { CommandAction } from './command.ts'
import { callControl, printJson } from './control-client.ts'

/** The filter flags; each is the query parameter of the same name (`--page-size`: `page_size`). */
const FILTER_FLAGS = ['method', 'path', 'status', 'username', 'since', 'until', 'page', 'page-size']

export const JOURNAL_ACTIONS: Record<string, CommandAction['run']> = {
  'journal list': async (values) => {
    const query = new URLSearchParams()
    for (const flag of FILTER_FLAGS) {
      const value = values[flag]
      if (value !== undefined)
        query.set(flag.replaceAll('-', '_'), flag === 'method' ? value.toUpperCase() : value)
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
