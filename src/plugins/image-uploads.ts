import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import type { UploadLimits } from '../modules/images/image-data.ts'
import { UPLOAD_PATH } from '../modules/images/image-uploads.service.ts'
import { prepareInspections } from '../modules/images/uploads/inspection-service.ts'

/** What the image upload needs to know: its public address and its limits. */
export interface ImageUploadSettings extends UploadLimits {
  /** Base URL clients reach this server at, without a trailing slash; `upload_to` starts with it. */
  publicUrl: string
  /** Images of one account that may wait for their data at once. */
  maxPendingUploads: number
}

declare module 'fastify' {
  interface FastifyInstance {
    imageUploads: ImageUploadSettings
  }
}

export const GIB = 1024 ** 3

export const DEFAULT_IMAGE_UPLOADS: ImageUploadSettings = {
  publicUrl: 'http://127.0.0.1:8080',
  maxCompressedBytes: 5 * GIB,
  maxUncompressedBytes: 6 * GIB,
  maxPendingUploads: 25,
  maxConcurrentUploads: 8,
}

async function imageUploadsPlugin(app: FastifyInstance, options: Partial<ImageUploadSettings>) {
  app.decorate('imageUploads', {
    publicUrl: options.publicUrl ?? DEFAULT_IMAGE_UPLOADS.publicUrl,
    maxCompressedBytes: options.maxCompressedBytes ?? DEFAULT_IMAGE_UPLOADS.maxCompressedBytes,
    maxUncompressedBytes: options.maxUncompressedBytes ?? DEFAULT_IMAGE_UPLOADS.maxUncompressedBytes,
    maxPendingUploads: options.maxPendingUploads ?? DEFAULT_IMAGE_UPLOADS.maxPendingUploads,
    maxConcurrentUploads: options.maxConcurrentUploads ?? DEFAULT_IMAGE_UPLOADS.maxConcurrentUploads,
  })
}

export const imageUploads = fp(imageUploadsPlugin, { name: 'image-uploads' })

/** Long enough after ready for the first requests (a readiness probe's) to be answered first. */
const PREPARE_AFTER_MS = 250

/**
 * What the first upload would otherwise wait for, done shortly after the server is ready: the
 * inspection process started, and the upload's answer serializer built (a large schema: tens to
 * a couple of hundred milliseconds on the event loop, at the end of the first upload otherwise).
 */
export function prepareImageUploads(app: FastifyInstance): void {
  setTimeout(() => {
    prepareInspections()
    setImmediate(() => app.compileSerializers('PUT', `${UPLOAD_PATH}/:token`))
  }, PREPARE_AFTER_MS).unref()
}
