import type { Command, OptionSpec } from './command.ts'
import { controlCommandsOf } from './control-commands.ts'

const FILTERS: Record<string, OptionSpec> = {
  method: { value: '<method>', help: 'only requests with this method (GET, POST, PUT, DELETE)' },
  path: { value: '<prefix>', help: 'only paths starting with this' },
  status: { value: '<code>', help: 'only answers with this status' },
  username: { value: '<name>', help: "only requests in this user's account" },
  since: { value: '<instant>', help: 'from this instant (virtual clock), e.g. 2030-01-01T00:00:00' },
  until: { value: '<instant>', help: 'before this instant' },
  page: { value: '<n>', help: 'page number [1]' },
  'page-size': { value: '<n>', help: 'entries per page, up to 500 [100]' },
}

const command = controlCommandsOf(async () => (await import('./journal-actions.ts')).JOURNAL_ACTIONS)

/** The request journal: what the API was sent and answered, newest first. */
export const JOURNAL_COMMANDS: Command[] = [
  command('journal list', 'list the requests the API answered, newest first', FILTERS),
  command('journal export-curl', 'print one journal entry as a curl command line', {}, ['id']),
  command('journal clear', 'clear the request journal'),
]
