import type { JobHandler } from '../job-kinds.ts'

export const blobDelete: JobHandler<'blob-delete'> = async (context, payload) => {
  await context.blobs.delete(payload.key)
}
