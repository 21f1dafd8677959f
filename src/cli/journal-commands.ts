import type { Command, OptionSpec } from './command.ts'
import { controlCommandsOf, opt, REQUEST_OPTIONS } from './control-commands.ts'

const { method, username } = REQUEST_OPTIONS

const FILTERS: Record<string, OptionSpec> = {
  method,
  path: opt('<prefix>', 'only paths starting with this'),
  status: opt('<code>', 'only answers with this status'),
  username,
  since: opt('<instant>', 'from this instant (virtual clock), e.g. 2030-01-01T00:00:00'),
  until: opt('<instant>', 'before this instant'),
  page: opt('<n>', 'page number [1]'),
  'page-size': opt('<n>', 'entries per page, up to 500 [100]'),
}

const command = controlCommandsOf(async () => (await import('./journal-actions.ts')).JOURNAL_ACTIONS)

/** The request journal: what the API was sent and answered, newest first. */
export const JOURNAL_COMMANDS: Command[] = [
  command('journal list', 'list the requests the API answered, newest first', FILTERS),
  command('journal export-curl', 'print one journal entry as a curl command line', {}, ['id']),
  command('journal clear', 'clear the request journal'),
]
