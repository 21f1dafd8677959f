import type { JobHandlers } from '../job-kinds.ts'
import { blobDelete } from './blob-delete.ts'
import { imageCapture } from './image-capture.ts'
import { imageUploadExpiry } from './image-upload-expiry.ts'

/** The handler of every job kind, one file each. */
export const JOB_HANDLERS: JobHandlers = {
  'image-capture': imageCapture,
  'image-upload-expiry': imageUploadExpiry,
  'blob-delete': blobDelete,
}
