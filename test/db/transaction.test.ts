import assert from 'node:assert/strict'
import { before, describe, it } from 'node:test'
import { sql } from 'kysely'
import { inTransaction } from '../../src/db/transaction.ts'
import { useTestApp } from '../helpers/app.ts'
import { testDialect } from '../helpers/dialects.ts'
import { createAccount, type TestUser } from '../helpers/factories.ts'

const onPostgres = testDialect() === 'postgres'

/** An error as the driver raises it for a conflict PostgreSQL resolved by rolling back. */
const conflict = () => Object.assign(new Error('could not serialize access'), { code: '40001' })

describe('write transactions', () => {
  const api = useTestApp()

  it('a failure that is not a conflict between writers runs once', async () => {
    let tries = 0
    await assert.rejects(
      inTransaction(api.db, async () => {
        tries++
        throw new Error('not a conflict')
      }),
      /not a conflict/,
    )
    assert.equal(tries, 1)
  })

  it('a conflict that persists is given up after three tries', async () => {
    let tries = 0
    await assert.rejects(
      inTransaction(api.db, async () => {
        tries++
        throw conflict()
      }),
      (error: Error & { code?: string }) => error.code === '40001',
    )
    assert.equal(tries, 3)
  })

  it('inside a caller’s transaction a conflict is the caller’s to retry', async () => {
    let tries = 0
    await assert.rejects(
      inTransaction(api.db, (trx) =>
        inTransaction(trx, async () => {
          tries++
          throw conflict()
        }),
      ),
    )
    // The outer transaction ran three times, the inner once per run.
    assert.equal(tries, 3)
  })
})

describe('writers that deadlock on PostgreSQL', { skip: !onPostgres && 'PostgreSQL run only' }, () => {
  const api = useTestApp()
  let owner: TestUser
  before(async () => {
    owner = await createAccount(api)
    await sql`create table deadlock_rows (id int primary key, n int not null)`.execute(api.db)
    await sql`insert into deadlock_rows values (1, 0), (2, 0)`.execute(api.db)
  })

  it('both commit: the deadlock’s victim runs again', async () => {
    // Each writer locks its first row, waits until the other has too, then wants the other's.
    let locked = 0
    let release: () => void = () => {}
    const bothLocked = new Promise<void>((resolve) => {
      release = resolve
    })
    const writer = (first: number, second: number) =>
      inTransaction(api.db, async (trx) => {
        await sql`update deadlock_rows set n = n + 1 where id = ${first}`.execute(trx)
        if (++locked === 2) release()
        await bothLocked
        await sql`update deadlock_rows set n = n + 1 where id = ${second}`.execute(trx)
      })
    await Promise.all([writer(1, 2), writer(2, 1)])
    const rows = await sql<{ id: number; n: number }>`select id, n from deadlock_rows order by id`.execute(
      api.db,
    )
    assert.deepEqual(
      rows.rows.map((r) => Number(r.n)),
      [2, 2],
    )
  })

  /** Makes the next `times` VPC inserts fail as serialization failures (a sequence is not rolled back). */
  const failVpcInserts = async (times: number) => {
    await sql`drop trigger if exists vpcs_conflict on vpcs`.execute(api.db)
    await sql`drop sequence if exists vpc_conflicts`.execute(api.db)
    await sql`create sequence vpc_conflicts`.execute(api.db)
    await sql
      .raw(`create or replace function vpc_conflict() returns trigger language plpgsql as $$
begin
  if nextval('vpc_conflicts') <= ${times} then
    raise exception 'could not serialize access' using errcode = '40001';
  end if;
  return new;
end $$`)
      .execute(api.db)
    await sql`create trigger vpcs_conflict before insert on vpcs for each row execute function vpc_conflict()`.execute(
      api.db,
    )
  }

  const createVpc = (label: string) =>
    api.request({
      method: 'POST',
      url: '/v4/vpcs',
      headers: owner.headers,
      payload: { label, region: 'us-iad' },
    })

  const vpcCreateEvents = async (label: string) => {
    const res = await api.request({
      method: 'GET',
      url: '/v4/account/events',
      headers: { ...owner.headers, 'x-filter': JSON.stringify({ action: 'vpc_create' }) },
    })
    return (res.body.data as Array<{ entity: { label: string } }>).filter((e) => e.entity.label === label)
  }

  it('a write rolled back once by a conflict is answered 200, made once, with one event', async () => {
    await failVpcInserts(1)
    const res = await createVpc('retried-once')
    assert.equal(res.status, 200, JSON.stringify(res.body))
    const listed = await api.request({ method: 'GET', url: '/v4/vpcs', headers: owner.headers })
    assert.equal(listed.body.data.filter((v: { label: string }) => v.label === 'retried-once').length, 1)
    assert.equal((await vpcCreateEvents('retried-once')).length, 1)
  })

  it('a conflict that persists is a 503 that says to try again, and nothing is made', async () => {
    await failVpcInserts(100)
    const res = await createVpc('never-made')
    assert.equal(res.status, 503)
    assert.deepEqual(res.body, { errors: [{ reason: 'Please try again' }] })
    assert.equal(res.headers['retry-after'], '1')
    await sql`drop trigger vpcs_conflict on vpcs`.execute(api.db)
    const listed = await api.request({ method: 'GET', url: '/v4/vpcs', headers: owner.headers })
    assert.equal(listed.body.data.filter((v: { label: string }) => v.label === 'never-made').length, 0)
    assert.equal((await vpcCreateEvents('never-made')).length, 0)
  })
})
