import assert from 'node:assert/strict'
import type { TestApp } from './app.ts'
import type { TestUser } from './factories.ts'

/** How many times the same DELETE is sent together. */
export const AT_ONCE = 6

/** What deletes sent together must answer: one removes the resource, the others find it gone. */
export const ONE_WINNER = [200, ...Array<number>(AT_ONCE - 1).fill(404)]

/** The same DELETE sent AT_ONCE times together: its statuses, sorted. */
export async function deleteTogether(api: TestApp, owner: TestUser, url: string): Promise<number[]> {
  const results = await Promise.all(
    Array.from({ length: AT_ONCE }, () => api.request({ method: 'DELETE', url, headers: owner.headers })),
  )
  return results.map((r) => r.status).sort()
}

interface WireEntity {
  id: number | string
  url: string
}

/** The events of `action` whose entity `about` picks, as the account's event list shows them. */
export async function eventsAbout(
  api: TestApp,
  owner: TestUser,
  action: string,
  about: (entity: WireEntity) => boolean,
): Promise<number> {
  const res = await api.request({
    method: 'GET',
    url: '/v4/account/events?page_size=500',
    headers: { ...owner.headers, 'x-filter': JSON.stringify({ action }) },
  })
  assert.equal(res.status, 200)
  return res.body.data.filter((e: { entity: WireEntity }) => about(e.entity)).length
}
