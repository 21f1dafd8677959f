import type { FastifyBaseLogger } from 'fastify'
import type { BlobStore } from '../blobs/blob-store.ts'
import type { Clock } from '../common/time.ts'
import type { Db } from '../db/connect.ts'
import type { WorkKind } from './work-durations.ts'

/** Every kind of background job and the payload its handler receives. */
export interface JobPayloads {
  /** A disk capture has been "processed": the image becomes available. */
  'image-capture': {
    imageId: number
    eventId: number
    started: string
    /** How long the capture takes (timed work); absent or 0: done in one step. */
    seconds?: number
  }
  /** An upload window closes: a still-empty image is removed with any data it holds. */
  'image-upload-expiry': { imageId: number }
  /** A step of checking uploaded data (when that takes time): progress, or the image available. */
  'image-upload-check': { imageId: number; eventId: number; scheduled: string; seconds: number }
  /** An upload's claim comes due: if its process died mid-stream, the URL takes data again. */
  'image-upload-lease': { imageId: number }
  /** A volume's provisioning or resize is done: it becomes active and its event finishes. */
  'volume-ready': { volumeId: number; eventId: number; started: string }
  /** Data of a deleted image is removed from the blob store. */
  'blob-delete': { key: string }
  /** A step of timed work on an instance (create, boot, reboot, shutdown): progress, or the end. */
  'instance-work': {
    instanceId: number
    eventId: number
    work: WorkKind
    /** When the request scheduled it; the work runs from a moment after this for `seconds`. */
    scheduled: string
    seconds: number
    /** The profile booted (boot, reboot, or create then boot). */
    configId: number | null
    /** Create only: boot once provisioned. */
    boot: boolean
    /** Who asked, for the events the work records later (the boot after a create). */
    source: { accountId: number; user: { id: number; username: string } | null }
  }
}

export type JobKind = keyof JobPayloads

export interface JobContext {
  db: Db
  blobs: BlobStore
  clock: Clock
  log: FastifyBaseLogger
  /** Whether a fault rule makes this piece of work fail (set by the emulator's controls). */
  workFails?: (work: WorkKind) => Promise<boolean>
}

/**
 * Handlers must be idempotent: a job whose runner died mid-way is run again once its lease ends,
 * and may find its work already done.
 */
export type JobHandler<K extends JobKind> = (context: JobContext, payload: JobPayloads[K]) => Promise<void>

export type JobHandlers = { [K in JobKind]: JobHandler<K> }
