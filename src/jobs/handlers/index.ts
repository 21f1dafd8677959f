import type { JobHandlers } from '../job-kinds.ts'
import { blobDelete } from './blob-delete.ts'
import { imageCapture } from './image-capture.ts'
import { imageUploadCheck } from './image-upload-check.ts'
import { imageUploadExpiry } from './image-upload-expiry.ts'
import { imageUploadLease } from './image-upload-lease.ts'
import { instanceWork } from './instance-work.ts'
import { volumeReady } from './volume-ready.ts'

/** The handler of every job kind, one file each. */
export const JOB_HANDLERS: JobHandlers = {
  'image-capture': imageCapture,
  'image-upload-check': imageUploadCheck,
  'image-upload-expiry': imageUploadExpiry,
  'image-upload-lease': imageUploadLease,
  'blob-delete': blobDelete,
  'instance-work': instanceWork,
  'volume-ready': volumeReady,
}
