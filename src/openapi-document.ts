import { buildApp } from './app.ts'
import { createDb } from './db/connect.ts'

/**
 * The OpenAPI document as generated from the route schemas, without a server or a real
 * database (the export script and the staleness test use it).
 */
export async function generateOpenApiDocument(): Promise<string> {
  const db = createDb({ kind: 'sqlite', location: ':memory:' })
  const app = await buildApp({ db, ownsDb: true })
  try {
    await app.ready()
    return `${JSON.stringify(app.swagger(), null, 2)}\n`
  } finally {
    await app.close()
  }
}
