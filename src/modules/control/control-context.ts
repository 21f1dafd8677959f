import type { FastifyBaseLogger } from 'fastify'
import type { BlobStore } from '../../blobs/blob-store.ts'
import type { AdjustableClock } from '../../common/time.ts'
import type { Db } from '../../db/connect.ts'
import type { Vocabulary } from '../../vocabulary/vocabulary.ts'

/**
 * What the control operations work with: the whole server rather than one caller. `runDueJobs`
 * lets a clock move complete the jobs it made due, on whichever process runs them, before the
 * answer goes out.
 */
export interface ControlContext {
  readonly db: Db
  readonly clock: AdjustableClock
  readonly blobs: BlobStore
  readonly log: FastifyBaseLogger
  /** The wire's words (CLOUDPLANE_NAMING), in which seed files are written. */
  readonly vocabulary: Vocabulary
  runDueJobs(): Promise<unknown>
  /** Brings this process's clock in line with the stored one (after a write to it). */
  syncClock(): Promise<void>
}
