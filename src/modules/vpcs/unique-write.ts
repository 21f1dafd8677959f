import { isUniqueViolation } from '../../db/dialects/dialect.ts'

/**
 * Runs a write that a unique index guards (a label within the account, or within a VPC). The
 * service checks the value first; a concurrent request that took it in between makes the write
 * fail, and that is answered with the same `refusal` as the check.
 */
export async function writeUnique<T>(write: () => Promise<T>, refusal: () => Error): Promise<T> {
  try {
    return await write()
  } catch (error) {
    if (isUniqueViolation(error)) throw refusal()
    throw error
  }
}
