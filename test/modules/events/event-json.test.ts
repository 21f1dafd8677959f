import assert from 'node:assert/strict'
import { before, describe, it } from 'node:test'
import fc from 'fast-check'
import { dialectOf } from '../../../src/db/dialects/dialect.ts'
import { eventJson } from '../../../src/modules/events/event-json.ts'
import { toEvent } from '../../../src/modules/events/event-wire.ts'
import { type NewEvent, recordEvents } from '../../../src/modules/events/events.repository.ts'
import { useTestApp } from '../../helpers/app.ts'
import { createAccount, type TestUser } from '../../helpers/factories.ts'

/**
 * The events list is rendered to JSON by the database (event-json.ts); a single event through
 * `toEvent`. Both must say exactly the same thing, key order included, for any event.
 */
describe('event JSON rendered by the database', () => {
  const api = useTestApp()
  let owner: TestUser
  before(async () => {
    owner = await createAccount(api)
  })

  const text = fc.string({
    unit: fc.constantFrom('a', 'é', '"', '\\', '\n', '\t', '/', '<', '😀', '\u0001', ' '),
    maxLength: 8,
  })
  const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: null })
  const timestamp = fc
    .date({
      min: new Date('2026-09-01T00:00:00Z'),
      max: new Date('2026-11-20T00:00:00Z'),
      noInvalidDate: true,
    })
    .map((d) => d.toISOString().slice(0, 19))

  const eventArb: fc.Arbitrary<Omit<NewEvent, 'accountId'>> = fc.record({
    user: maybe(fc.record({ id: fc.integer({ min: 1, max: 1e6 }), username: text })),
    action: fc.constantFrom('vpc_create', 'subnet_delete', 'image_upload', 'profile_update', 'disk_imagize'),
    entity: maybe(
      fc.record({
        type: fc.constantFrom('vpc', 'subnet', 'image', 'compute', 'profile', 'token'),
        id: maybe(fc.integer({ min: 0, max: 2 ** 40 })),
        label: maybe(text),
        url: maybe(text),
      }),
    ),
    secondary: maybe(
      fc.record({
        type: fc.constantFrom('vpc', 'image', 'disk', 'compute_config'),
        id: fc.oneof(
          fc.integer({ min: 0, max: 2 ** 40 }),
          fc.constantFrom('compute/debian12', 'private/17', '0012', '12a', '', '9'.repeat(16)),
        ),
        label: maybe(text),
        url: maybe(text),
      }),
    ),
    status: fc.constantFrom('failed', 'finished', 'notification', 'scheduled', 'started'),
    percentComplete: maybe(fc.integer({ min: 0, max: 100 })),
    duration: maybe(fc.integer({ min: 0, max: 100000 })),
    message: maybe(text),
    grant: fc.constant(null),
    created: timestamp,
  })

  it('matches toEvent for any event, key order included', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(eventArb, { minLength: 1, maxLength: 5 }),
        fc.boolean(),
        async (events, seen) => {
          const ids = await recordEvents(
            api.db,
            events.map((e) => ({ ...e, accountId: owner.accountId })),
          )
          if (seen)
            await api.db
              .updateTable('events')
              .set({ seen: true, read: true })
              .where('id', 'in', ids)
              .execute()
          const rows = await api.db
            .selectFrom('events')
            .selectAll('events')
            .select(eventJson(dialectOf(api.db)).as('json'))
            .where('id', 'in', ids)
            .orderBy('id')
            .execute()
          for (const { json, ...row } of rows) {
            assert.equal(JSON.stringify(JSON.parse(json)), JSON.stringify(toEvent(row)), json)
          }
        },
      ),
      { numRuns: 60 },
    )
  })
})
