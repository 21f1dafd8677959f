import type { FastifyBaseLogger } from 'fastify'
import type { BlobStore } from '../blobs/blob-store.ts'
import type { Clock } from '../common/time.ts'
import type { Db } from '../db/connect.ts'

/** Every kind of background job and the payload its handler receives. */
export interface JobPayloads {
  /** A disk capture has been "processed": the image becomes available. */
  'image-capture': { imageId: number; eventId: number; started: string }
  /** An upload window closes: a still-empty image is removed with any data it holds. */
  'image-upload-expiry': { imageId: number }
  /** Data of a deleted image is removed from the blob store. */
  'blob-delete': { key: string }
}

export type JobKind = keyof JobPayloads

export interface JobContext {
  db: Db
  blobs: BlobStore
  clock: Clock
  log: FastifyBaseLogger
}

/**
 * Handlers must be idempotent: a job whose runner died mid-way is run again once its lease ends,
 * and may find its work already done.
 */
export type JobHandler<K extends JobKind> = (context: JobContext, payload: JobPayloads[K]) => Promise<void>

export type JobHandlers = { [K in JobKind]: JobHandler<K> }
