import {
  instancesPerAccount,
  setInstancesPerAccount,
} from '../modules/compute/instances/instance-limits.repository.ts'
import { findUserByUsername } from '../modules/users/users.repository.ts'
import { setVpcsPerRegion, vpcsPerRegion } from '../modules/vpcs/vpc-limits.repository.ts'
import { UsageError, type Values } from './command.ts'
import { withDatabase } from './database.ts'

/** A limit option: a whole number, "default" (null) or not given (undefined). */
function limitOption(values: Values, name: string): number | null | undefined {
  const text = values[name]
  if (text === undefined) return undefined
  if (text === 'default') return null
  if (!/^[0-9]{1,6}$/.test(text)) {
    throw new UsageError(`--${name} must be a whole number from 0 to 999999, or "default"; got "${text}"`)
  }
  return Number(text)
}

/** Shows or raises an account's limits (VPCs per region, instances); `default` restores the default. */
export async function run(values: Values): Promise<void> {
  const { username } = values
  if (!username) throw new UsageError('account limits needs --username <name>')
  const vpcs = limitOption(values, 'vpcs-per-region')
  const instances = limitOption(values, 'instances')
  const current = await withDatabase('account limits', values, async (db) => {
    const user = await findUserByUsername(db, username)
    if (user === undefined) throw new UsageError(`no user named "${username}"`)
    if (vpcs !== undefined) await setVpcsPerRegion(db, user.account_id, vpcs)
    if (instances !== undefined) await setInstancesPerAccount(db, user.account_id, instances)
    return {
      vpcs: await vpcsPerRegion(db, user.account_id),
      instances: await instancesPerAccount(db, user.account_id),
    }
  })
  process.stdout.write(`vpcs-per-region ${current.vpcs}\ninstances ${current.instances}\n`)
}
